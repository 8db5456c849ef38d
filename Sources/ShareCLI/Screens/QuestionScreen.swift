import ShareCore

extension ScreenPresenter: QuestionPresenter {
    /// An activity's question on the choice screen (the `Chooser` that
    /// `--resume --draft` shows): the index chosen, or nil when closed.
    func ask(_ question: ActivityQuestion) async -> Int? {
        await choose(title: question.title, heading: question.heading, none: question.none, options: question.options)
    }
}
