import ShareSupport

/// What happens to a picture's location when nothing on the command line
/// says: `[options] location`.
public enum LocationChoice: String, Sendable, Equatable, CaseIterable {
    /// Removed for public destinations (social posts, Link, Nearby's link), kept for private ones.
    case auto
    /// Always kept.
    case keep
    /// Always removed.
    case strip
}

/// The options a person chooses before sharing, for every activity: a
/// picture's location or all its metadata removed, pictures resized, the
/// items handed over as a link (SPEC §9). Declared here once: the parser,
/// `--help`, the man page, the completions and the picker's Options line
/// are made from these declarations.
public struct SharingOptions: Sendable, Equatable {
    /// What becomes of a picture's location.
    public var location: LocationChoice = .auto
    /// `--no-metadata`: every piece of metadata removed, the picture turned upright first.
    public var removesMetadata = false
    /// `--resize PIXELS`: the longest side of JPEG and PNG pictures, at most.
    public var longestSide: Int?
    /// `--as-link`: the items go to a Link place first, and the activity gets the link.
    public var asLink = false

    /// No option: the location as `auto` decides, nothing else changed.
    public init() {}

    /// The options' heading in `--help` and the man page.
    public nonisolated static let group = OptionSpec.Group("Options before sharing (every activity)")

    /// The options, as the command line declares them.
    public nonisolated static var options: [OptionSpec] {
        [
            OptionSpec("--no-location", group: group, help: "remove where pictures were taken (GPS, places in XMP and IPTC) before any activity gets them",
                       manual: "remove where pictures were taken before any activity gets them: EXIF's GPS directory, XMP that names a place, IPTC's city, region and country; everything else stays, and the picture's data is copied byte for byte. Without it, [options] location decides (auto: removed for social posts, Link and Nearby, kept for Mail, Message, Save to Pictures and the rest)"),
            OptionSpec("--no-metadata", group: group, help: "remove all metadata from pictures (EXIF, XMP, IPTC, comments, PNG text), turned upright first",
                       manual: "remove all metadata from JPEG and PNG pictures: EXIF, XMP, IPTC, comments, thumbnails, PNG text and time; the colour profile stays. A picture that EXIF says to turn is turned upright first (losslessly where its size allows)"),
            OptionSpec("--resize", value: "PIXELS", group: group, help: "scale JPEG and PNG pictures down so their longest side is at most PIXELS",
                       manual: "scale JPEG and PNG pictures down so that their longest side is at most PIXELS (16 to 65535), turned upright; a JPEG keeps its quality as near as its tables tell it, and its metadata unless told otherwise"),
            OptionSpec("--as-link", group: group, help: "upload the items to a Link place first and share the link instead",
                       manual: "upload the items to a Link place first ([link] in the config) and give the chosen activity the link instead of the items"),
        ]
    }

    /// The config keys the options read: `[options] location`.
    public nonisolated static var configKeys: [ConfigKeys] { [ConfigKeys(section: "options", keys: ["location"])] }

    /// The smallest and largest `--resize`.
    static let sides = 16...65_535

    /// The options given in `arguments`, over `[options]` of the config.
    ///
    /// - Throws: ``UsageError`` for a `--resize` that is not a number of pixels.
    public init(arguments: ActivityArguments) throws(UsageError) {
        if arguments.has("--no-location") { location = .strip }
        removesMetadata = arguments.has("--no-metadata")
        asLink = arguments.has("--as-link")
        if let value = arguments.value("--resize") {
            guard let side = Int(value), Self.sides.contains(side) else {
                throw UsageError(Localization.text("--resize takes the longest side in pixels, 16 to 65535, not '%@'", value))
            }
            longestSide = side
        }
    }

    /// Reads `[options] location` into options that the command line did not set.
    ///
    /// - Throws: ``ConfigurationError`` naming the line of a value other than auto, keep or strip.
    public mutating func apply(_ section: ConfigSection, commandLine arguments: ActivityArguments) throws(ConfigurationError) {
        guard let entry = section.entry("location") else { return }
        guard let choice = LocationChoice(rawValue: entry.value.lowercased()) else {
            throw section.error(entry, "location takes auto, keep or strip, not '\(entry.value)'")
        }
        if !arguments.has("--no-location") { location = choice }
    }

    /// Whether any option changes the items.
    public var changesItems: Bool { location != .keep || removesMetadata || longestSide != nil || asLink }

    /// What is removed from the pictures `type` receives: everything with
    /// `--no-metadata`, else the location as chosen (`auto`: for public
    /// destinations only); `nil` for nothing.
    public func removal(for type: ActivityType) -> MetadataRemoval? {
        if removesMetadata { return .all }
        switch location {
        case .strip: return .location
        case .keep: return nil
        case .auto: return Self.isPublic(type) ? .location : nil
        }
    }

    /// Whether what `type` shares is seen by people the sharer does not
    /// choose: social posts, a Link upload, Nearby's link open to the
    /// network. Mail, Message, Save to Pictures, Assign to Contact, Copy,
    /// Print and plugins are private (a plugin is the person's own program).
    public static func isPublic(_ type: ActivityType) -> Bool {
        type == .link || type == .airDrop || type.rawValue.hasPrefix("postTo")
    }
}
