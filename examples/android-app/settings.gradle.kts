// The Baton Android sample app. NO MACHINE HERE HAS RUN THIS FILE (no Gradle, Android Gradle plugin, Google Maven or
// android.jar on the build machines): `make test` type-checks the Kotlin sources against clients/android/stubs and
// the SDK instead (clients/android/scripts/typecheck-sample). README.md says how to build it in Android Studio.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
    plugins {
        id("com.android.application") version "8.5.0"
        id("com.android.library") version "8.5.0"
        id("org.jetbrains.kotlin.android") version "1.9.24"
    }
}
dependencyResolutionManagement {
    repositories {
        google()
        mavenCentral()
    }
}
rootProject.name = "baton-android-sample"

// The SDK from this repository, as a partner includes it before it is published (docs/android.md §1).
include(":baton-android")
project(":baton-android").projectDir = file("../../clients/android")
