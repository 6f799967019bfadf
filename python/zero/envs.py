"""zero's games as reinforcement-learning environments: a PettingZoo AEC environment for two agents and a
Gymnasium environment for one agent against an opponent, for every registered game.

>>> from zero.envs import aec_env, gym_env
>>> env = aec_env("connect4")              # PettingZoo: env.reset(), env.last(), env.step(action), ...
>>> single = gym_env("connect4", opponent="random")
>>> observation, info = single.reset(seed=1)
>>> sorted(observation)
['action_mask', 'observation']

``import gymnasium; gymnasium.make("zero/connect4-v0")`` makes the Gymnasium one too, once ``zero.envs`` is
imported. Both need the ``gymnasium`` package (the AEC one ``pettingzoo`` as well), which ``import zero`` does
not.

Observations are dictionaries, as PettingZoo's classic board games give them: ``observation``, the network's
input planes (float32 ``(planes, height, width)``, values in [0, 1], ``docs/encoding.md``) from the view of the
player to act, and ``action_mask``, int8 over the whole action space, 1 at each legal action. An action is an
index of the game's fixed action space (``zero.Game(name).action_space``); a Bashni capture of several jumps is
several actions by the same player. The rewards come at the end: 1 for the winner, -1 for the loser, 0 each for a
draw (the game's own draw rules, its ply cap included, end it: that is a termination, never a truncation).

A legal-looking but illegal action (inside the action space, outside the mask) loses the game for the player who
chose it, as in PettingZoo's classic games, and the info says so (``illegal_action``). Misuse raises ValueError:
an action that is not an integer or lies outside the action space, or a step after the end (call ``reset``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ._zero import Bot, Game, State, games

__all__ = ["ZeroAECEnv", "ZeroGymEnv", "aec_env", "gym_env"]


def _spaces(game: Game) -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=game.input_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.action_space,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(game.action_space)


def _observation(state: State, to_act: bool) -> dict[str, np.ndarray]:
    """The planes of the position as the player to act sees them; the mask is empty for anyone else."""
    mask = state.legal_actions_mask() if to_act else np.zeros(state.game.action_space, dtype=np.int8)
    return {"observation": state.encode(), "action_mask": mask}


def _action_index(action: Any, game: Game) -> int:
    """`action` as an index of the action space; ValueError when it is not an integer inside it."""
    try:
        index = operator.index(action)
    except TypeError:
        raise ValueError(f"an action is an integer, not {action!r}") from None
    if not 0 <= index < game.action_space:
        raise ValueError(f"action {index} is outside {game.name}'s action space 0..{game.action_space - 1}")
    return index


def _render(state: State, mode: str | None) -> str | None:
    """The board as text: printed in "human" mode, returned in "ansi" mode."""
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text


def _game(game: str | Game, variant: str | None, options: Any) -> Game:
    return game if isinstance(game, Game) else Game(game, variant=variant, options=options)


try:
    from pettingzoo import AECEnv as _AECEnv
except ImportError:  # PettingZoo is needed by the AEC environment only
    _AECEnv = None

# Without PettingZoo the class exists and says what it needs when made.
_AECBase = _AECEnv if _AECEnv is not None else object


class ZeroAECEnv(_AECBase):  # type: ignore[misc,valid-type]
    """Two agents, named as the game names its players (``white``/``black``, ``goats``/``tigers``, ...), taking
    turns (the same agent again in the middle of a Bashni capture)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "zero_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Game,
        variant: str | None = None,
        options: Any = None,
        render_mode: str | None = None,
    ) -> None:
        if _AECEnv is None:
            raise ImportError("the AEC environment needs PettingZoo: pip install pettingzoo")
        super().__init__()
        self.game = _game(game, variant, options)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"zero_{self.game.name}_v0"}
        self.possible_agents = list(self.game.players)
        observation, action = _spaces(self.game)
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: action for agent in self.possible_agents}
        self.state = self.game.new_initial_state()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # The games have no chance: the seed changes nothing, and is accepted as the API asks.
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r}: the agents are {self.possible_agents}")
        to_act = not self.state.is_terminal() and agent == self.possible_agents[self.state.current_player()]
        return _observation(self.state, to_act)

    def step(self, action: Any) -> None:
        if not self.agents:
            raise ValueError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = _action_index(action, self.game)
        self._cumulative_rewards[agent] = 0.0
        player = self.state.current_player()
        if index in self.state.legal_actions():
            self.state.apply_action(index)
            returns = self.state.returns()
        else:
            returns = [0.0, 0.0]
            returns[player], returns[1 - player] = -1.0, 1.0
            self.infos[agent] = {"illegal_action": index}
        over = self.state.is_terminal() or "illegal_action" in self.infos[agent]
        for side, name in enumerate(self.possible_agents):
            self.rewards[name] = returns[side] if over else 0.0
            self.terminations[name] = over
        if over:
            self.agent_selection = self.possible_agents[1 - player]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _render(self.state, self.render_mode)

    def close(self) -> None:
        pass


class ZeroGymEnv(gymnasium.Env):
    """One agent playing one side of a game against an opponent that answers inside ``step``.

    ``play_as`` is 0 (the first player) or 1. ``opponent`` is ``"random"`` (uniform over the legal actions, drawn
    from the environment's seeded generator), a ``zero.Bot`` (a trained bundle, ``zero.Bot(path)``), or a
    function of the state returning a legal action."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str | Game = "connect4",
        play_as: int = 0,
        opponent: str | Bot | Callable[[State], int] = "random",
        variant: str | None = None,
        options: Any = None,
        render_mode: str | None = None,
    ) -> None:
        self.game = _game(game, variant, options)
        if play_as not in (0, 1):
            raise ValueError(f"play_as is 0 (the first player) or 1, not {play_as!r}")
        if not (opponent == "random" or isinstance(opponent, Bot) or callable(opponent)):
            raise ValueError(f"opponent is 'random', a zero.Bot or a function of the state, not {opponent!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.play_as = play_as
        self.opponent = opponent
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(self.game)
        self.state = self.game.new_initial_state()
        self._over = True

    def _opponent_acts(self) -> None:
        """The opponent plays until the agent is to act or the game is over."""
        while not self.state.is_terminal() and self.state.current_player() != self.play_as:
            if self.opponent == "random":
                legal = self.state.legal_actions()
                self.state.apply_action(legal[int(self.np_random.integers(len(legal)))])
            elif isinstance(self.opponent, Bot):
                self.state.play(self.opponent.choose(self.state))
            else:
                action = _action_index(self.opponent(self.state.clone()), self.game)
                if action not in self.state.legal_actions():
                    raise ValueError(f"the opponent chose action {action}, not legal in {self.state.position!r}")
                self.state.apply_action(action)

    def _observe(self) -> dict[str, np.ndarray]:
        return _observation(self.state, not self.state.is_terminal())

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        self._over = False
        self._opponent_acts()
        self._over = self.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._over:
            raise ValueError("the episode is over (or was never begun): call reset()")
        index = _action_index(action, self.game)
        info: dict[str, Any] = {}
        if index in self.state.legal_actions():
            self.state.apply_action(index)
            self._opponent_acts()
            reward = self.state.returns()[self.play_as]
            self._over = self.state.is_terminal()
        else:
            info["illegal_action"] = index
            reward, self._over = -1.0, True
        if self._over and self.state.outcome() is not None:
            info["outcome"] = self.state.outcome().reason
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), self._over, False, info

    def render(self) -> str | None:
        return _render(self.state, self.render_mode)


def aec_env(game: str | Game, **kwargs: Any) -> ZeroAECEnv:
    """The PettingZoo AEC environment of `game` (keyword arguments: variant, options, render_mode)."""
    return ZeroAECEnv(game, **kwargs)


def gym_env(game: str | Game, **kwargs: Any) -> ZeroGymEnv:
    """The Gymnasium environment of `game` (keyword arguments: play_as, opponent, variant, options,
    render_mode)."""
    return ZeroGymEnv(game, **kwargs)


for _name in games():
    _id = f"zero/{_name}-v0"
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="zero.envs:ZeroGymEnv", kwargs={"game": _name})
