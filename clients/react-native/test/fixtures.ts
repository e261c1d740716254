// A share_or_neutral card as GET /v2/catalog serves it, for the tests.
export const shareCard = {
  id: 'item-1',
  presentation_contract: { block_order: ['image', 'title', 'summary', 'price'] },
  title: 'Weight care',
  summary: 'A clinician-led program.',
  priceText: '$99 / month',
  image: { url: 'https://partner.example/a.png', alt: 'A clinician' },
  handoff: {
    mode: 'share_or_neutral',
    heading: 'Share your selection?',
    body: 'If you share, Chia starts with your pick.',
    recipient: { legal_name: 'Chia Health', privacy_contact: 'privacy@chia.example' },
    dataShared: ['The item you selected'],
    purpose: 'To start your consultation.',
    compensationDisclosure: 'We receive a referral fee.',
    policyUrls: { privacy: 'https://chia.example/privacy' },
    primary: { actionLabel: 'Share selection and continue', sessionCreationPath: '/v2/handoff-sessions', disclosureVersion: 'dv-1' },
    secondary: { actionLabel: 'Continue without sharing', url: 'https://chia.example/c/item-1' },
  },
};
