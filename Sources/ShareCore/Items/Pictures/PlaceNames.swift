/// How share tells that XMP or IPTC says where a picture was taken.
enum PlaceNames {
    /// The local names of XMP properties that give a place: EXIF's GPS
    /// properties (`exif:GPSLatitude` and the rest), Photoshop's
    /// city, state and country, IPTC Core's location and country code,
    /// IPTC Extension's locations shown and created, and their parts.
    private static let xmpProperties: [[UInt8]] = [
        "GPS", "City", "State", "Country", "CountryCode", "CountryName", "Location", "LocationCreated", "LocationShown",
        "Sublocation", "ProvinceState", "WorldRegion",
    ].map { Array($0.utf8) }

    /// Whether an XMP packet (or a piece of one) has a property that gives
    /// a place: one of ``xmpProperties`` as an element or attribute name,
    /// with any namespace prefix (`<exif:GPSLatitude>`, `photoshop:City="…"`,
    /// `<City xmlns="…">`). The test errs towards finding a place: a word
    /// such as `:Locations` counts too, and the whole packet is then
    /// removed, which loses no place.
    static func inXMP(_ bytes: ArraySlice<UInt8>) -> Bool {
        let colon = UInt8(ascii: ":"), open = UInt8(ascii: "<")
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(where: { $0 == colon || $0 == open }) {
            let name = bytes[(found + 1)...]
            if xmpProperties.contains(where: { name.starts(with: $0) }) { return true }
            index = found + 1
        }
        return false
    }

    /// The IPTC datasets (record 2) that give a place: 26 location code,
    /// 27 location name, 90 city, 92 sub-location, 95 province or state,
    /// 100 country code, 101 country.
    static let iptcDatasets: Set<UInt8> = [26, 27, 90, 92, 95, 100, 101]
}
