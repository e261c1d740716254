package dev.baton.sample

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/**
 * What the sample talks to: `baton serve --sandbox --port 8080` on the development machine, reached from the emulator
 * through `adb reverse` (so 127.0.0.1 is loopback on both sides and `UrlPolicy.DEVELOPMENT` accepts plain http), and
 * the return URLs the sandbox registers with BB and Privue (plus the landing page's open host, which this app's own
 * activity receives and routes through `BatonLinkRouter`).
 */
object SampleConfiguration {
    const val BACKEND = "http://127.0.0.1:8080"
    val USERS = listOf("test-user-1", "test-user-2")
    const val WORKFLOW = "merchant-onboarding"
    val BB_RETURN_URLS = listOf(
        "https://app.example.com/bb-callback", "acmewallet://bb-callback", "https://open.app.example.com/bb-callback"
    )
    val PRIVUE_RETURN_URLS = listOf("https://app.example.com/kyc/done", "https://open.app.example.com/kyc/done")
    /** An emulator cannot verify app.example.com's app links, so BB returns through the custom scheme. */
    const val BB_CALLBACK_KIND = "custom-scheme"
}

/** Why signing in against the sandbox failed (shown on screen; never carries the token). */
class SignInException(message: String) : Exception(message)

/**
 * Signs a test user in the only way the sandbox offers: `POST /web/dev-token?user=ID` on the backend, with the dev
 * sign-in secret `baton serve --sandbox` printed at start (also in its `.baton/dev-sign-in-secret`) as
 * `X-Baton-Dev-Secret`; it answers `{"token","expiresAt"}` to local requests only (through `adb reverse` the request is
 * local). A real app gets its app token from its own sign-in instead. Blocking: call it off the main thread.
 */
object SandboxSignIn {
    @Throws(SignInException::class)
    fun devToken(backend: String, user: String, devSecret: String): String {
        val encoded = java.net.URLEncoder.encode(user, "UTF-8")
        val connection = URL("$backend/web/dev-token?user=$encoded").openConnection() as HttpURLConnection
        try {
            connection.requestMethod = "POST"
            connection.setRequestProperty("X-Baton-Dev-Secret", devSecret.trim())
            connection.connectTimeout = 10_000
            connection.readTimeout = 10_000
            connection.doOutput = true
            connection.setFixedLengthStreamingMode(0)
            connection.outputStream.close()
            val status = connection.responseCode
            if (status == 403) throw SignInException("dev-token answered 403: copy the dev sign-in secret baton serve --sandbox printed")
            if (status != 200) throw SignInException("dev-token answered $status (is `baton serve --sandbox` running, and `adb reverse` set?)")
            val body = connection.inputStream.use { String(it.readBytes(), Charsets.UTF_8) }
            val token = try {
                org.json.JSONObject(body).getString("token")
            } catch (e: org.json.JSONException) {
                throw SignInException("dev-token answered no token")
            }
            if (token.isEmpty()) throw SignInException("dev-token answered an empty token")
            return token
        } catch (e: IOException) {
            throw SignInException("no answer from $backend (${e.javaClass.simpleName})")
        } finally {
            connection.disconnect()
        }
    }
}
