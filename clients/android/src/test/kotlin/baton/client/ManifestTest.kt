package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import org.w3c.dom.Element
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory

/**
 * The library manifest (src/main/AndroidManifest.xml) as seeds 001 and 002 require it. No aapt2 or manifest merger
 * runs here, so this reads the XML itself: the activities it declares exist in baton.android, BB's redirect activity
 * is singleTask with the verified https filter and the unverified custom-scheme fallback, all from placeholders.
 */
class ManifestTest {
    private val android = "http://schemas.android.com/apk/res/android"
    private val root: File = listOf(File("clients/android"), File(".")).first { File(it, "src/main/AndroidManifest.xml").isFile }
    private val manifest: Element = DocumentBuilderFactory.newInstance().also { it.isNamespaceAware = true }
        .newDocumentBuilder().parse(File(root, "src/main/AndroidManifest.xml")).documentElement

    private fun elements(parent: Element, name: String): List<Element> {
        val nodes = parent.getElementsByTagName(name)
        return (0 until nodes.length).map { nodes.item(it) as Element }
    }

    private fun Element.a(name: String): String = getAttributeNS(android, name)

    private fun activity(name: String): Element = elements(manifest, "activity").single { it.a("name") == name }

    @Test
    fun everyDeclaredActivityIsALibraryClass() {
        val names = elements(manifest, "activity").map { it.a("name") }
        assertEquals(listOf("baton.android.BatonRedirectActivity", "baton.android.BatonVerificationActivity"), names)
        for (name in names) assertTrue(name, File(root, "src/main/kotlin/" + name.replace('.', '/') + ".kt").isFile)
    }

    @Test
    fun bbReturnsToASingleTaskActivityThroughAVerifiedLinkAndAnUnverifiedFallback() {
        val redirect = activity("baton.android.BatonRedirectActivity")
        assertEquals("singleTask", redirect.a("launchMode"))
        assertEquals("true", redirect.a("exported"))
        val filters = elements(redirect, "intent-filter")
        val data = filters.map { elements(it, "data").single() }
        assertEquals(listOf("https", "\${batonBbReturnScheme}", "https"), data.map { it.a("scheme") })
        assertEquals(listOf("true", "", "true"), filters.map { it.a("autoVerify") })
        assertEquals("\${batonBbReturnHost}", data[0].a("host"))
        assertEquals("\${batonBbReturnPath}", data[0].a("path"))
        assertEquals("\${batonPrivueReturnHost}", data[2].a("host"))
        assertEquals("\${batonPrivueReturnPath}", data[2].a("path"))
        for (filter in filters) {
            val categories = elements(filter, "category").map { it.a("name") }
            assertEquals(listOf("android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"), categories)
            assertEquals("android.intent.action.VIEW", elements(filter, "action").single().a("name"))
        }
    }

    @Test
    fun theCameraActivityIsPrivateAndSurvivesRotation() {
        val verification = activity("baton.android.BatonVerificationActivity")
        assertEquals("false", verification.a("exported"))
        val changes = verification.a("configChanges").split('|')
        assertTrue(changes.containsAll(listOf("orientation", "screenSize")))
        val permissions = elements(manifest, "uses-permission").map { it.a("name") }
        assertTrue(permissions.contains("android.permission.CAMERA"))
        assertFalse(permissions.contains("android.permission.RECORD_AUDIO"))
    }
}
