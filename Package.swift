// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "umilog",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DiveKit", targets: ["DiveKit"]),
        .library(name: "DiveCore", targets: ["DiveCore"]),
        .library(name: "DiveStore", targets: ["DiveStore"]),
        .executable(name: "umilog", targets: ["umilog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // Documentation only (`swift package generate-documentation`, scripts/docs.sh): a plugin,
        // never linked into a product or built by `swift build`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // SHA-256 for the store's file identities, from OpenSSL's libcrypto (Linux only: Apple's
        // systems have CommonCrypto).
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "DiveCore", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "DiveXML", dependencies: ["DiveCore", "CLibXML2"]),
        .target(name: "DiveUDDF", dependencies: ["DiveCore", "DiveXML", "CLibXML2"]),
        .target(name: "DiveSSRF", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveArchive", dependencies: ["DiveCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(name: "DiveSuunto", dependencies: ["DiveCore", "DiveXML", "DiveArchive", "DiveJSON"]),
        .target(name: "DiveSQLite", dependencies: ["DiveCore", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "DiveShearwater", dependencies: ["DiveCore", "DiveXML", "DiveArchive", "DiveSQLite", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "DiveUDCF", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveMacDive", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveDivingLog", dependencies: ["DiveCore", "DiveXML", "DiveSQLite", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "DiveJDiveLog", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveDataTrak", dependencies: ["DiveCore"]),
        .target(name: "DiveSmartTrak", dependencies: ["DiveCore"]),
        .target(name: "DiveLibdcXML", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveCSV", dependencies: ["DiveCore", "DiveJSON"]),
        .target(name: "DiveJSON", dependencies: ["DiveCore"]),
        .target(name: "DiveFIT", dependencies: ["DiveCore"]),
        .target(name: "DiveDL7", dependencies: ["DiveCore"]),
        .target(name: "DiveSeac", dependencies: ["DiveCore", "DiveSQLite", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "DiveDivesoft", dependencies: ["DiveCore"]),
        .target(name: "DivePlot", dependencies: ["DiveCore", "DiveXML"]),
        .target(name: "DiveKit", dependencies: ["DiveCore", "DiveXML", "DiveUDDF", "DiveSSRF", "DiveSuunto", "DiveShearwater", "DiveUDCF", "DiveMacDive", "DiveDivingLog", "DiveJDiveLog", "DiveLibdcXML", "DiveDataTrak", "DiveSmartTrak", "DiveFIT", "DiveDL7", "DiveSeac", "DiveDivesoft", "DiveArchive", "DiveCSV", "DiveJSON", "DivePlot"]),
        .target(
            name: "DiveStore",
            dependencies: ["DiveCore", "DiveKit", .product(name: "GRDB", package: "GRDB.swift"),
                           .target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
            exclude: ["Resources"]
        ),
        .executableTarget(
            name: "umilog",
            dependencies: [
                "DiveKit",
                "DiveStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "make-logbook", dependencies: ["DiveCore"]),
        // scripts/bench-logbook.sh: the logbook at 20,000 dives, timed (not part of the test run).
        .executableTarget(name: "bench-logbook", dependencies: ["DiveCore", "DiveKit", "DiveStore", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .target(name: "TestSupport", dependencies: ["CTestSupport"], path: "Tests/TestSupport"),
        .testTarget(name: "DiveCoreTests", dependencies: ["DiveCore"]),
        .testTarget(name: "DiveUDDFTests", dependencies: ["DiveUDDF", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveXMLTests", dependencies: ["DiveXML", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveSSRFTests", dependencies: ["DiveSSRF", "DiveCore", "DiveXML", "DiveUDDF", "TestSupport"]),
        .testTarget(name: "DiveArchiveTests", dependencies: ["DiveArchive", "DiveCore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "DiveSuuntoTests", dependencies: ["DiveSuunto", "DiveCore", "DiveXML", "DiveArchive", "DiveJSON", "TestSupport",
                                                          .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "DiveShearwaterTests", dependencies: ["DiveShearwater", "DiveCore", "DiveXML", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "DiveUDCFTests", dependencies: ["DiveUDCF", "DiveCore", "DiveXML", "TestSupport"]),
        .testTarget(name: "DiveMacDiveTests", dependencies: ["DiveMacDive", "DiveCore", "DiveXML", "TestSupport"]),
        .testTarget(name: "DiveDivingLogTests", dependencies: ["DiveDivingLog", "DiveKit", "DiveCore", "DiveXML", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "DiveJDiveLogTests", dependencies: ["DiveJDiveLog", "DiveCore", "DiveXML", "TestSupport"]),
        .testTarget(name: "DiveDataTrakTests", dependencies: ["DiveDataTrak", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveSmartTrakTests", dependencies: ["DiveSmartTrak", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveLibdcXMLTests", dependencies: ["DiveLibdcXML", "DiveCore", "DiveXML", "TestSupport"]),
        .testTarget(name: "DiveCSVTests", dependencies: ["DiveCSV", "DiveCore", "DiveUDDF", "TestSupport"]),
        .testTarget(name: "DiveKitTests", dependencies: ["DiveKit", "DiveXML", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "DiveJSONTests", dependencies: ["DiveJSON", "DiveKit", "TestSupport"]),
        .testTarget(name: "DiveStoreTests", dependencies: ["DiveStore", "DiveKit", "DiveJSON", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "DiveFITTests", dependencies: ["DiveFIT", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveDL7Tests", dependencies: ["DiveDL7", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveDivesoftTests", dependencies: ["DiveDivesoft", "DiveCore", "TestSupport"]),
        .testTarget(name: "DiveSeacTests", dependencies: ["DiveSeac", "DiveCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "DivePlotTests", dependencies: ["DivePlot", "DiveKit", "DiveCore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "UmilogCLITests", dependencies: ["DiveKit", "DiveStore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets, built only by scripts/fuzz.sh (UMILOG_FUZZ=1, -sanitize=fuzzer,address), where
// libFuzzer supplies `main`: each feeds one input to a reader and every writer.
if Context.environment["UMILOG_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["DiveKit", "DiveCore"], path: "Fuzz/FuzzSupport"))
    for (product, directory) in [("fuzz-uddf", "FuzzUDDF"), ("fuzz-csv", "FuzzCSV"), ("fuzz-divejson", "FuzzDiveJSON"),
                                 ("fuzz-ssrf", "FuzzSSRF"), ("fuzz-fit", "FuzzFIT"),
                                 ("fuzz-suunto-json", "FuzzSuuntoJSON"), ("fuzz-shearwater-xml", "FuzzShearwaterXML"),
                                 ("fuzz-suunto-dm3", "FuzzSuuntoDM3"), ("fuzz-zip", "FuzzZip")] {
        package.targets.append(.executableTarget(
            name: product, dependencies: ["FuzzSupport", "DiveKit"], path: "Fuzz/\(directory)"))
    }
}
