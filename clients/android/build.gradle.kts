// The Baton Android library module (issue 27). NO MACHINE HERE HAS RUN THIS FILE: there is no Gradle, no Android
// Gradle plugin, no Google Maven and no android.jar on the build machines, so `make test` compiles the same sources
// with kotlinc against clients/android/stubs instead (clients/android/scripts/build). docs/android.md says so too.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
    `maven-publish`
}

group = "dev.baton"
version = "0.1.0" // mirrors VERSION (scripts/versions.py)

android {
    namespace = "dev.baton.android"
    compileSdk = 34

    defaultConfig {
        minSdk = 23 // runtime permissions (CAMERA) and WebView PermissionRequest
        consumerProguardFiles("consumer-rules.pro")
    }

    sourceSets {
        getByName("main") {
            java.srcDirs("src/main/kotlin")
            manifest.srcFile("src/main/AndroidManifest.xml")
        }
        getByName("test") {
            java.srcDirs("src/test/kotlin")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_1_8
        targetCompatibility = JavaVersion.VERSION_1_8
    }

    kotlinOptions {
        jvmTarget = "1.8"
    }

    publishing {
        singleVariant("release") {
            withSourcesJar()
        }
    }
}

dependencies {
    implementation("androidx.browser:browser:1.8.0")   // Custom Tabs (BB)
    implementation("androidx.activity:activity:1.9.0") // ActivityResultContract (Privue's activity result)
    testImplementation("junit:junit:4.13.2")
}

publishing {
    publications {
        register<MavenPublication>("release") {
            groupId = "dev.baton"
            artifactId = "baton-android"
            version = project.version.toString()
            afterEvaluate {
                from(components["release"])
            }
            pom {
                name.set("Baton Android SDK")
                licenses {
                    license {
                        name.set("Apache-2.0")
                        url.set("https://www.apache.org/licenses/LICENSE-2.0")
                    }
                }
            }
        }
    }
}
