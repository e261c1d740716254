// clients/react-native/scripts/conformance-report: one JSON object on stdout with every shared case's result.
import { runCase, sharedCases } from './vectors';

const cases = sharedCases().map((c) => {
  const [result, detail] = runCase(c);
  return { file: c.file, section: c.section, id: c.id, result, detail };
});
process.stdout.write(`${JSON.stringify({ shell: 'typescript', cases })}\n`);
