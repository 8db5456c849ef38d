import Testing
@testable import ShareActivities

/// LocalSend's pure parts: what names a device, where an address points,
/// a fingerprint as the digest a certificate must have.
struct LocalSendUnitTests {
    static let device = LocalSendDevice(alias: "Kim's Pixel", model: "Samsung", type: "mobile",
                                        fingerprint: "AB:" + String(repeating: "0", count: 62), host: "192.168.1.20", port: 53317, isHTTPS: true)

    @Test func aDeviceIsNamedByItsAliasInAnyCaseOrItsAddress() {
        #expect(Self.device.matches("kim's pixel") && Self.device.matches(" KIM'S PIXEL "))
        #expect(Self.device.matches("192.168.1.20:53317") && Self.device.matches("192.168.1.20"))
        #expect(!Self.device.matches("Kim") && !Self.device.matches("192.168.1.2") && !Self.device.matches("192.168.1.20:8080"))
        #expect(Self.device.label == "Kim's Pixel (Samsung, mobile)" && Self.device.icon == "📱")
    }

    @Test func addressesWithAndWithoutPorts() {
        #expect(NearbyActivity.hostAndPort("192.168.1.20").map { "\($0.0) \($0.1)" } == "192.168.1.20 53317")
        #expect(NearbyActivity.hostAndPort("192.168.1.20:8080").map { "\($0.0) \($0.1)" } == "192.168.1.20 8080")
        #expect(NearbyActivity.hostAndPort("[fe80::1]:9000").map { "\($0.0) \($0.1)" } == "fe80::1 9000")
        #expect(NearbyActivity.hostAndPort("Kim's Pixel") == nil && NearbyActivity.hostAndPort("phone:80") == nil)
        #expect(NearbyActivity.hostAndPort("192.168.1.20:0") == nil && NearbyActivity.hostAndPort("192.168.1.20:70000") == nil)
    }

    @Test func aFingerprintIsTheDigestInHexadecimalAnyCaseWithOrWithoutColons() {
        #expect(Self.device.certificateDigest == [0xAB] + [UInt8](repeating: 0, count: 31))
        var random = Self.device
        random.fingerprint = "a random string of an http device"
        #expect(random.certificateDigest == nil)
    }

    @Test func aDeviceFromItsInfoNeedsANameAFingerprintAndSomeoneToAnswer() throws {
        let info = try #require(LocalSendInfo.decoded(Array(#"{"alias":"Lee","fingerprint":"x","port":1234,"protocol":"http","announce":true}"#.utf8)))
        let device = try #require(LocalSendDevice.from(info, host: "10.0.0.5"))
        #expect(device.address == "10.0.0.5:1234" && !device.isHTTPS && device.type == "desktop")
        #expect(LocalSendDevice.from(info, host: "0.0.0.0") == nil)
        let nameless = try #require(LocalSendInfo.decoded(Array(#"{"alias":"  ","fingerprint":"x"}"#.utf8)))
        #expect(LocalSendDevice.from(nameless, host: "10.0.0.5") == nil)
        #expect(LocalSendInfo.decoded(Array("not json".utf8)) == nil)
    }
}
