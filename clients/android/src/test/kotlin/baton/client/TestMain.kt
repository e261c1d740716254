package baton.client

import org.junit.runner.JUnitCore
import org.junit.runner.notification.Failure
import kotlin.system.exitProcess

/** Runs every JUnit class given on the command line and prints the one `N passed, N failed` line. */
object TestMain {
    @JvmStatic
    fun main(args: Array<String>) {
        val classes = args.map { Class.forName(it) }.toTypedArray()
        val result = JUnitCore().run(*classes)
        for (failure: Failure in result.failures) println("FAILED ${failure.testHeader}: ${failure.message}")
        val failed = result.failureCount
        val skipped = result.assumptionFailureCount + result.ignoreCount
        val passed = result.runCount - failed - result.assumptionFailureCount
        println("kotlin: $passed passed, $failed failed ($skipped not run)")
        exitProcess(if (failed == 0) 0 else 1)
    }
}
