/// A choice an activity needs made before it performs (which of several
/// places to upload to), asked on a screen of its own: one of `options`.
public struct ActivityQuestion: Sendable, Equatable {
    /// The screen's title (`Link`).
    public var title: String
    /// What is asked (`Upload to`).
    public var heading: String
    /// What the screen says when the typed filter matches no option.
    public var none: String
    public var options: [String]

    public init(title: String, heading: String, none: String, options: [String]) {
        self.title = title
        self.heading = heading
        self.none = none
        self.options = options
    }
}

/// An activity that may ask one question before it performs.
///
/// The share sheet asks it, after `prepare(with:)`, when a front end can
/// show the question; closing the question cancels the share. Without a
/// front end the question is not asked, and the activity must do without
/// an answer (a default), or fail saying what to give instead.
@MainActor
public protocol QuestionAsking: Activity {
    /// The question to ask now, or `nil` when none is needed.
    var questionBeforePerforming: ActivityQuestion? { get }
    /// The option chosen, by its index in the question's options.
    func answer(_ index: Int)
}

/// A front end that can ask an activity's question.
@MainActor
public protocol QuestionPresenter: AnyObject {
    /// The index of the option chosen, or `nil` when the person closed the question.
    func ask(_ question: ActivityQuestion) async -> Int?
}
