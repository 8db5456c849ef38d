/// Changes the items an activity receives, once it is picked and before it
/// prepares: the options a person chose before sharing (a picture's
/// location or all its metadata taken out, pictures resized, the items
/// handed over as a link).
///
/// The share sheet asks once per run, with the items resolved for the
/// activity (``ShareSheet/resolvedItems(for:)``). A conformer never
/// changes an original: the files it hands back are copies of its own, and
/// it says which original each stands for, so that the items a result
/// returns name the originals.
@MainActor
public protocol ItemAdjusting: AnyObject {
    /// The items `activity` receives in place of `items`, in order.
    ///
    /// - Throws: when an item cannot be changed as asked (a picture whose
    ///   metadata cannot be read when its location must go): the run fails
    ///   with `item-failed`, and nothing is shared.
    func adjusted(_ items: [ShareItem], for activity: any Activity) async throws -> [ShareItem]

    /// The item a returned item stands for: the original when `item` names
    /// one of the copies made, else `item` itself.
    func original(of item: ShareItem) -> ShareItem

    /// What the last change could not do and let pass (a picture whose
    /// format cannot be checked for a place); the result carries them as
    /// its warnings.
    var warnings: [String] { get }
}

extension ItemAdjusting {
    public var warnings: [String] { [] }
}
