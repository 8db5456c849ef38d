import FoundationEssentials

/// One HTTP GET for the activities that fetch (Save to Pictures' images,
/// the reading list's titles): http and https only, a limited number of
/// redirects, a deadline, TLS certificates checked, at most so many bytes,
/// and the body handed over in pieces as it arrives — an ``HTTPClient``
/// request with those settings.
struct HTTPGet {
    /// Why a fetch failed, in words for people.
    struct Failure: Error {
        var reason: String
    }

    var timeoutSeconds: Int
    var maximumRedirects = 5
    var maximumBytes: Int

    /// Fetches `url`, giving each piece of the body to `receive`, which
    /// returns false to stop (then the fetch fails with `stopped`).
    func fetch(_ url: URL, stopped: String = "the download was stopped",
               receive: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        let client = HTTPClient(protocols: "http,https", connectSeconds: min(15, timeoutSeconds), totalSeconds: timeoutSeconds,
                                maximumAnswer: 4096, maximumRedirects: maximumRedirects)
        var count = 0, overflowed = false
        let outcome = withoutActuallyEscaping(receive) { receive in
            Result { () throws(HTTPClient.Failure) in
                try client.perform("GET", url.absoluteString, receive: { bytes in
                    guard count + bytes.count <= maximumBytes else {
                        overflowed = true
                        return false
                    }
                    count += bytes.count
                    return receive(bytes)
                })
            }
        }
        let response: HTTPClient.Response
        switch outcome {
        case .success(let answer): response = answer
        case .failure(let error):
            throw Failure(reason: overflowed ? "it is larger than \(HTTPGet.size(maximumBytes))" : error.refused ? stopped
                          : error.timedOut ? "no answer within \(timeoutSeconds) s" : error.reason)
        }
        guard response.isSuccess else { throw Failure(reason: "the server answered HTTP \(response.status)") }
    }

    static func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
}
