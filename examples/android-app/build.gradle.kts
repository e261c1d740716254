// The sample app's only module (not run here: see settings.gradle.kts).
plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "dev.baton.sample"
    compileSdk = 34

    defaultConfig {
        applicationId = "dev.baton.sample"
        minSdk = 23
        targetSdk = 34
        versionCode = 1
        versionName = "0.1.0"
        // The return URLs `baton serve --sandbox` registers with BB and Privue (the library's manifest needs them).
        manifestPlaceholders += mapOf(
            "batonBbReturnHost" to "app.example.com",
            "batonBbReturnPath" to "/bb-callback",
            "batonBbReturnScheme" to "acmewallet",
            "batonPrivueReturnHost" to "app.example.com",
            "batonPrivueReturnPath" to "/kyc/done",
        )
    }

    sourceSets {
        getByName("main") {
            java.srcDirs("src/main/kotlin")
            manifest.srcFile("src/main/AndroidManifest.xml")
            res.srcDirs("src/main/res")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_1_8
        targetCompatibility = JavaVersion.VERSION_1_8
    }

    kotlinOptions {
        jvmTarget = "1.8"
    }
}

dependencies {
    implementation(project(":baton-android"))
}
