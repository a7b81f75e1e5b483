/// An effect of a workflow step; some give the event for the next transition.
public protocol WorkflowEffect: Equatable, Sendable {
    /// Whether performing it gives the next event.
    var givesEvent: Bool { get }
}

/// What a workflow's transition function returns: the next state and the effects to perform to
/// get there (the last effect that gives an event gives the event for the next transition).
/// Change PIN and authentication share it (`ChangePINStep`, `AuthStep`).
public struct WorkflowStep<State: Equatable & Sendable, Effect: WorkflowEffect>: Equatable, Sendable {
    public var state: State
    public var effects: [Effect]

    public init(_ state: State, _ effects: [Effect] = []) {
        self.state = state
        self.effects = effects
    }

    /// Drives a workflow from this step until a state is final: tells `onState` each state,
    /// performs each step's effects in order, and moves on with `transition` and the event they
    /// gave. A step that gives no event (only one the transition function does not know: a bug)
    /// ends the workflow with `stalled(state)` rather than hanging it.
    func run<Event, Outcome>(
        onState: (State) -> Void, perform: (Effect) -> Event?, finished: (State) -> Outcome?,
        stalled: (State) -> Outcome, transition: (State, Event) -> WorkflowStep
    ) -> Outcome {
        var step = self
        while true {
            onState(step.state)
            var event: Event?
            for effect in step.effects {
                let result = perform(effect)
                if effect.givesEvent { event = result }
            }
            if let outcome = finished(step.state) { return outcome }
            guard let event else { return stalled(step.state) }
            step = transition(step.state, event)
        }
    }
}
