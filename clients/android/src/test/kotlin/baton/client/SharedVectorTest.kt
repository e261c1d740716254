package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assume.assumeTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/** Every case of Conformance/{return-links,link-routing,retry-classification,renderer-conformance,interaction}.v1.json. */
@RunWith(Parameterized::class)
class SharedVectorTest(private val case: SharedCase) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): Collection<Array<Any>> = SharedVectors.all.map { arrayOf<Any>(it) }
    }

    @Test
    fun vector() {
        val (result, detail) = case.result()
        assumeTrue("not run: $detail", result != "not_run")
        assertEquals(detail, "passed", result)
    }
}
