// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "share",
    products: [
        .executable(name: "share", targets: ["share"]),
        .library(name: "ShareCore", targets: ["ShareCore"]),
    ],
    targets: [
        // C shims: one per C library, a module map and a header of inline wrappers.
        // Those of libraries loaded with dlopen on first use open them through CLoader.
        .target(name: "CLoader"),
        .target(name: "CMagic", dependencies: ["CLoader"]),
        .target(name: "CIdn2", dependencies: ["CLoader"]),
        .target(name: "CCurl", dependencies: ["CLoader"]),
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // GNU gettext as glibc has it (translations).
        .systemLibrary(name: "CGettext", path: "Sources/CGettext"),
        .target(name: "CThumbnail", dependencies: ["CLoader"]),
        // CUPS' client library, loaded when a print job is followed.
        .target(name: "CCups", dependencies: ["CLoader"]),
        // libstrophe (XMPP) for Message, loaded when a message is sent.
        .target(name: "CStrophe", dependencies: ["CLoader"]),
        // libqrencode, loaded when a QR code is drawn.
        .target(name: "CQrencode", dependencies: ["CLoader"]),
        // libmicrohttpd and libarchive, loaded when Nearby serves (an HTTP server, a zip streamed).
        .target(name: "CMicrohttpd", dependencies: ["CLoader"]),
        .target(name: "CArchive", dependencies: ["CLoader"]),
        // OpenSSL's libcrypto, loaded when a request is signed (OAuth 1.0a's HMAC-SHA1) or a digest taken (SHA-256).
        .target(name: "CCrypto", dependencies: ["CLoader"]),
        // libxml2's HTML parser, loaded when HTML is read (a page's title, an HTML mail's plain text).
        .target(name: "CXML", dependencies: ["CLoader"]),
        // cmark-gfm, loaded when a mail's Markdown is rendered as HTML.
        .target(name: "CMarkdown", dependencies: ["CLoader"]),
        .target(name: "CGpgme", dependencies: ["CLoader"]),
        // sd-bus (libsystemd), loaded when share-portal serves the desktop's Email portal; descriptors over Unix sockets.
        .target(name: "CPortal", dependencies: ["CLoader"]),
        // The command line from the C library, not from /proc/self/maps (start-up).
        .target(name: "CStartArguments"),

        // What the other targets stand on: processes, local files, SHA-256, threads,
        // INI and JSON, password commands, config locations, translations (POSIX and glibc).
        .target(name: "ShareSupport", dependencies: ["CGettext", "CCrypto", "CXML"]),
        // The shared core: the API an iOS developer knows (items, sources, providers,
        // activities, eligibility, forms, results) and the history.
        .target(name: "ShareCore", dependencies: ["ShareSupport", "CMagic"]),
        // Mail: addresses, messages, MIME, transports, Maildir (grows with the mail engine).
        .target(name: "ShareMail", dependencies: ["ShareSupport", "ShareCore", "CIdn2", "CCurl", "CMarkdown", "CGpgme"]),
        // System activities and, later, plugins.
        .target(name: "ShareActivities", dependencies: ["ShareSupport", "ShareCore", "ShareMail", "CCurl", "CThumbnail", "CCups", "CStrophe",
                                                       "CMicrohttpd", "CArchive", "CCrypto"]),
        // The terminal UI: pure state/update/view plus one ncurses backend.
        .target(name: "ShareTerminal", dependencies: ["ShareSupport", "ShareCore", "CNcursesw", "CThumbnail", "CQrencode"]),
        // A terminal in memory for tests of screens: never linked into share.
        .target(name: "ShareTerminalTesting", dependencies: ["ShareTerminal"]),
        // Argument parsing, configuration, wiring: everything `share` does, as a library.
        .target(name: "ShareCLI", dependencies: ["ShareSupport", "ShareCore", "ShareMail", "ShareActivities", "ShareTerminal", "CPortal"]),
        .executableTarget(name: "share", dependencies: ["ShareCLI", "CStartArguments"]),
        // Generated documents (the man page) from the option table.
        .executableTarget(name: "share-docs", dependencies: ["ShareCLI"]),
        // Fuzz targets for the parsers of untrusted input: replays inputs in
        // debug builds; built with -sanitize=fuzzer by `make fuzz`.
        .executableTarget(name: "share-fuzz", dependencies: ["ShareCLI", "ShareSupport", "ShareCore", "ShareMail", "ShareActivities", "ShareTerminal",
                                                             "CThumbnail"]),
        // The real command line plus application activities from the Swift API,
        // for the picker's end-to-end tests, screenshots and benchmarks.
        .executableTarget(name: "share-activities-fixture", dependencies: ["ShareCLI", "ShareSupport", "ShareCore", "CStartArguments"]),
        // share's state files changed through its own code, one change a run,
        // for the tests that start twenty runs at once.
        .executableTarget(name: "share-state-fixture", dependencies: ["ShareSupport", "ShareCore"]),

        // The seeds' examples of the Swift API (make examples).
        .executableTarget(name: "example-custom-mail", dependencies: ["ShareCLI", "ShareSupport", "ShareCore", "ShareActivities", "ShareMail"],
                          path: "Examples/CustomMail"),
        .executableTarget(name: "example-pin-share", dependencies: ["ShareCLI", "ShareSupport", "ShareCore"], path: "Examples/PINShare"),
        .executableTarget(name: "example-mustachify", dependencies: ["ShareCLI", "ShareSupport", "ShareCore", "ShareTerminal", "CCurl"],
                          path: "Examples/Mustachify"),

        // What the test targets share: `eventually`, the one way a test waits.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ShareSupportTests", dependencies: ["ShareSupport", "TestSupport"]),
        .testTarget(name: "ShareCoreTests", dependencies: ["ShareSupport", "ShareCore", "ShareMail", "TestSupport"]),
        .testTarget(name: "ShareActivitiesTests", dependencies: ["ShareSupport", "ShareActivities", "ShareCore", "ShareMail", "ShareTerminal"]),
        .testTarget(name: "ShareCLITests", dependencies: ["ShareCLI", "ShareSupport", "ShareCore", "ShareActivities", "ShareTerminalTesting",
                                                         "TestSupport"]),
        .testTarget(name: "ShareMailTests", dependencies: ["ShareSupport", "ShareMail", "ShareCore"]),
        .testTarget(name: "ShareTerminalTests", dependencies: ["ShareSupport", "ShareTerminal", "ShareCore"],
                    exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
