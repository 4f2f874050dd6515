"""The `transitions` Machine every flow fires through, minus per-step logging.

A turn fires one to three triggers, and the stock classes spend about a third of each
trigger on `logging` calls (ten per trigger, all below INFO or at INFO) and on `get_state`'s
Enum check. `QuietMachine` plugs leaner classes into the extension points `transitions`
provides (`state_cls`, `transition_cls`, `event_cls`) and keeps its semantics: the same
callbacks in the same order, conditions, exceptions and `on_exception`. A test replays a
machine with every kind of callback on both and compares the calls, so an upgrade of
`transitions` that changes the stock order fails loudly instead of drifting.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any

from transitions import Event, Machine, State, Transition

_LOGGER = logging.getLogger(__name__)


class QuietState(State):
    def enter(self, event_data: Any) -> None:
        event_data.machine.callbacks(self.on_enter, event_data)

    def exit(self, event_data: Any) -> None:
        event_data.machine.callbacks(self.on_exit, event_data)


class QuietTransition(Transition):
    def execute(self, event_data: Any) -> bool:
        machine = event_data.machine
        machine.callbacks(self.prepare, event_data)
        for condition in self.conditions:
            if not condition.check(event_data):
                return False
        machine.callbacks(itertools.chain(machine.before_state_change, self.before), event_data)
        if self.dest:  # None: an internal transition
            self._change_state(event_data)
        machine.callbacks(itertools.chain(self.after, machine.after_state_change), event_data)
        return True


class QuietEvent(Event):
    def _trigger(self, event_data: Any) -> bool:
        machine = self.machine
        event_data.state = machine.get_model_state(event_data.model)
        try:
            if self._is_valid_source(event_data.state):
                self._process(event_data)
        except BaseException as err:
            event_data.error = err
            if machine.on_exception:
                machine.callbacks(machine.on_exception, event_data)
            else:
                raise
        finally:
            try:
                machine.callbacks(machine.finalize_event, event_data)
            except BaseException as err:  # as transitions does: a failing finalizer is logged, not raised
                _LOGGER.error("while executing finalize callbacks a %s occurred: %s", type(err).__name__, err)
        return bool(event_data.result)

    def _process(self, event_data: Any) -> bool:
        self.machine.callbacks(self.machine.prepare_event, event_data)
        for transition in self.transitions[event_data.state.name]:
            event_data.transition = transition
            if transition.execute(event_data):
                event_data.result = True
                return True
        return False


class QuietMachine(Machine):
    """A `transitions.Machine` that fires without logging each step."""

    state_cls = QuietState
    transition_cls = QuietTransition
    event_cls = QuietEvent

    def callbacks(self, funcs: Any, event_data: Any) -> None:
        for func in funcs:
            self.callback(func, event_data)

    def get_state(self, state: Any) -> Any:
        try:
            return self.states[state]
        except (KeyError, TypeError):  # an Enum member, or no such state: the stock lookup decides
            return super().get_state(state)
