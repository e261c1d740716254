package baton.client

import org.junit.Assert.assertEquals
import org.junit.Test

/** The Android presenters' decisions that need no Android: camera grants, web view navigation, origins. */
class PresenterDecisionsTest {
    private val journey = Origins.of("https://verify.privue.example/acme/kyc#ticket=t")!!
    private val video = CameraGrant.VIDEO_CAPTURE
    private val audio = "android.webkit.resource.AUDIO_CAPTURE"

    @Test
    fun theCameraIsGrantedToTheJourneysOriginOnly() {
        assertEquals(listOf(video), CameraGrant.decide(journey, "https://verify.privue.example/", listOf(video, audio), true))
        assertEquals(listOf(video), CameraGrant.decide(journey, "HTTPS://Verify.Privue.Example:443", listOf(video), true))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, "https://evil.example/", listOf(video), true))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, "https://verify.privue.example:8443/", listOf(video), true))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, "http://verify.privue.example/", listOf(video), true))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, "https://verify.privue.example/", listOf(audio), true))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, "https://verify.privue.example/", listOf(video), false))
        assertEquals(emptyList<String>(), CameraGrant.decide(journey, null, listOf(video), true))
    }

    @Test
    fun theWebViewReturnsOnTheRegisteredPathAllowsHttpsAndBlocksTheRest() {
        val registered = listOf(RegisteredReturnUrl("https://partner.example/kyc/done"))
        assertEquals(JourneyNavigation.RETURN, JourneyNavigation.decide("https://partner.example/kyc/done?verification_id=v", registered))
        assertEquals(JourneyNavigation.RETURN, JourneyNavigation.decide("https://PARTNER.example/kyc/done", registered))
        assertEquals(JourneyNavigation.ALLOW, JourneyNavigation.decide("https://digilocker.gov.example/consent", registered))
        assertEquals(JourneyNavigation.BLOCK, JourneyNavigation.decide("intent://scan#Intent;scheme=x;end", registered))
        assertEquals(JourneyNavigation.BLOCK, JourneyNavigation.decide("http://partner.example/kyc/done", registered))
        assertEquals(JourneyNavigation.BLOCK, JourneyNavigation.decide("javascript:alert(1)", registered))
    }
}
