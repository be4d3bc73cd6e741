"""Train the ``learned`` bot for blackwood-frey: imitation of the heuristic bot, then MaskablePPO
self-play against a pool of its earlier versions and the built-in bots (not a test).

    python bench/train.py [--payoff-size 26] [--imitation-games 1500] [--ppo-minutes 25]
                          [--eval-games 200] [--seed 1] [--out bench/out/train]
                          [--ship spitemalice/env/learned.npz]

Needs torch and sb3-contrib, too heavy for any extra of the project: make a separate virtual
environment (``pip install torch sb3-contrib matplotlib -e '.[rl]'``, the CPU torch wheel).
Torch runs on one thread: a small network gains nothing from more.

1. **Imitation.**  The heuristic bot plays ``--imitation-games`` games against itself (one
   move in ten a random legal one, so that the data holds positions off its own path); each
   decision is kept as the environment's observation and action mask of the seat on turn
   (``spitemalice/BlackwoodFrey-v1``: actions by card) with the heuristic's action, and the
   game's win/loss result for that seat.  MaskablePPO's own policy network learns them by
   cross-entropy over the legal actions, its value network the results.
2. **Self-play.**  MaskablePPO continues from there for ``--ppo-minutes`` CPU minutes, the
   learner in seat 0 in half its environments and seat 1 in the other half, each game against
   an opponent drawn afresh: the heuristic bot (40%), a frozen earlier version of itself (35%,
   one of the last five kept every 20 updates), the greedy bot (20%) or the random bot (5%);
   reward +1/-1/0 (win-loss).
3. **Evaluation.**  The imitation network, four kept versions evenly spaced and the last
   play ``--eval-games`` new deals against the heuristic bot (each seat in turn) through the
   same numpy inference the shipped bot uses; the best of them is written to ``--ship``.

Writes ``OUT.json`` (the CPU seconds of each stage, the data sizes, the evaluations with 95%
Wilson intervals) and ``OUT.png``, the learning curve: the imitation losses per epoch, and
the win rate of self-play games against each kind of opponent over a moving window.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import spitemalice as sm
from spitemalice.bots import players
from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.env.learned import PolicyPlayer, card_positions, features
from spitemalice.env.observation import ObservationLayout
from spitemalice.env.spaces import Encoding
from spitemalice.measures.rates import wilson
from spitemalice.runs.loop import play_game

sys.path.insert(0, str(Path(__file__).parent))
from bounds import over_cap  # a script beside this one

ENV_ID = "spitemalice/BlackwoodFrey-v1"
CLIP = 63.0
CODES = 15  # card codes 0 (none) .. 14 (a king): blackwood-frey's
TOP = 3  # discard-pile cards one-hot per pile
HIDDEN = [256, 256]
VALUE = [64, 64]
POSITIONS = card_positions(ObservationLayout(5, 1, 4, 4, 2, 20), TOP)
MIX = [("heuristic", 0.40), ("pool", 0.35), ("greedy", 0.20), ("random", 0.05)]


class Scaled(gymnasium.ObservationWrapper):  # type: ignore[misc]
    """The observation array alone, as float32 in 0..1 (counts above 63 clipped); the action
    mask stays with ``action_masks()``.  Each reset draws the opponent from :data:`MIX`."""

    def __init__(self, env: gymnasium.Env, pool: list[str], seed: int) -> None:
        super().__init__(env)
        size = env.observation_space["observation"].shape[0] + len(POSITIONS) * CODES
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)
        self.pool, self.rng, self.kind = pool, random.Random(seed), "heuristic"

    def reset(self, **kwargs: Any) -> Any:
        kinds, weights = zip(*MIX, strict=True)
        kind = self.rng.choices(kinds, weights)[0]
        if kind == "pool":
            kind = self.rng.choice(self.pool[-5:]) if self.pool else "heuristic"
        self.kind = "pool" if kind.startswith("pool") else kind
        unwrapped = self.env.unwrapped
        unwrapped.kinds = {seat: kind for seat in unwrapped.kinds}
        return super().reset(**kwargs)

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return scale(observation["observation"])

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def scale(observation: np.ndarray) -> np.ndarray:
    """The network's input from one observation (1-D) or a batch (2-D):
    :func:`spitemalice.env.learned.features`, as the shipped bot computes it."""
    batch = observation if observation.ndim == 2 else observation[None, :]
    out = features(batch, POSITIONS, CODES, CLIP)
    return out if observation.ndim == 2 else out[0]


# -- 1. imitation ---------------------------------------------------------------------------

def imitation_data(rules: sm.RuleBook, games: int, seed: int,
                   explore: float = 0.1) -> dict[str, np.ndarray]:
    """The heuristic bot's decisions in ``games`` self-play games: observations, masks,
    actions, and each decision's seat's result (+1/-1/0)."""
    encoding = Encoding(rules, 20, "card")
    rng = random.Random(seed)
    rows: dict[str, list[Any]] = {"obs": [], "mask": [], "action": [], "result": []}
    for game in range(games):
        bots = [HeuristicPlayer(seed + 2 * game), HeuristicPlayer(seed + 2 * game + 1)]
        state = sm.deal(rules, seed + game)
        seats = []
        while state.outcome is None:
            over_cap(len(seats), "imitation data")  # a bound: bench/bounds.py
            moves = sm.legal_moves(rules, state)
            chosen = bots[state.seat].choose(rules, state, moves)
            observed = encoding.observe(state, state.seat)
            rows["obs"].append(observed["observation"])
            rows["mask"].append(observed["action_mask"].astype(bool))
            rows["action"].append(encoding.catalogue.actions(state, chosen)[0])
            seats.append(state.seat)
            played = rng.choice(moves) if rng.random() < explore else chosen
            state = sm.apply_move(rules, state, played)
        winner = state.outcome.winner
        rows["result"] += [0.0 if winner is None else 1.0 if seat == winner else -1.0
                           for seat in seats]
    return {"obs": np.stack(rows["obs"]), "mask": np.stack(rows["mask"]),
            "action": np.array(rows["action"]), "result": np.array(rows["result"], np.float32)}


def imitate(model: MaskablePPO, data: dict[str, np.ndarray], epochs: int,
            seed: int) -> list[dict[str, float]]:
    """Cross-entropy of the heuristic's actions (policy) and squared error of the results
    (value) on the first 90% of the games; returns per epoch the loss and the accuracy on
    the last 10% (games never trained on).  Adam, learning rate 1e-3 falling 20% an epoch."""
    policy = model.policy
    generator = torch.Generator().manual_seed(seed)
    count = len(data["action"])
    train, held = np.arange(count - count // 10), np.arange(count - count // 10, count)
    obs, mask = data["obs"], torch.as_tensor(data["mask"])
    action, result = torch.as_tensor(data["action"]), torch.as_tensor(data["result"])
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    history = []
    for epoch in range(epochs):
        for group in optimiser.param_groups:
            group["lr"] = 1e-3 * 0.8 ** epoch
        shuffled = train[torch.randperm(len(train), generator=generator).numpy()]
        total = 0.0
        for start in range(0, len(shuffled), 512):
            batch = shuffled[start:start + 512]
            values, log_prob, _ = policy.evaluate_actions(
                torch.as_tensor(scale(obs[batch])), action[batch], action_masks=mask[batch])
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - result[batch]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(batch)
        right = 0
        with torch.no_grad():
            for start in range(0, len(held), 4096):
                rows = held[start:start + 4096]
                logits = policy.action_net(policy.mlp_extractor.forward_actor(
                    torch.as_tensor(scale(obs[rows]))))
                logits[~mask[rows]] = -1e9
                right += int((logits.argmax(1) == action[rows]).sum())
        history.append({"loss": total / len(train), "held_out_accuracy": right / len(held)})
        print("epoch", epoch, history[-1], flush=True)
    return history


# -- numpy export and evaluation ------------------------------------------------------------

def export(model: MaskablePPO, rules: sm.RuleBook) -> dict[str, np.ndarray]:
    """The policy network's weights as numpy arrays, in the shipped file's layout."""
    linear = [layer for layer in model.policy.mlp_extractor.policy_net
              if isinstance(layer, torch.nn.Linear)] + [model.policy.action_net]
    arrays: dict[str, np.ndarray] = {"layers": np.array(len(linear)), "clip": np.array(CLIP),
                                     "ruleset": np.array(rules.name),
                                     "players": np.array(rules.players),
                                     "plugins": np.array(list(rules.plugins)),
                                     "discard_depth": np.array(20),
                                     "catalogue": np.array("card"),
                                     "codes": np.array(CODES),
                                     "card_positions": POSITIONS}
    for index, layer in enumerate(linear):
        arrays[f"w{index}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
        arrays[f"b{index}"] = layer.bias.detach().numpy().astype(np.float32).copy()
    return arrays


def numpy_player(arrays: dict[str, np.ndarray]) -> PolicyPlayer:
    """A player running ``arrays`` as :class:`~spitemalice.env.learned.LearnedPlayer` does."""
    layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(int(arrays["layers"]))]

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        x = scale(observation)
        for weight, bias in layers[:-1]:
            x = np.tanh(x @ weight + bias)
        scores = x @ layers[-1][0] + layers[-1][1]
        return int(np.flatnonzero(mask)[np.argmax(scores[mask])])

    return PolicyPlayer(policy)


def evaluate(rules: sm.RuleBook, player: Any, opponent: str, games: int,
             seed: int) -> dict[str, Any]:
    """``games`` new deals against ``opponent``, the player in seat 0 and seat 1 in turn."""
    counts = {"won": 0, "lost": 0, "drawn": 0}
    for game in range(games):
        seat = game % 2
        other = players.make_player(opponent, seed + game)
        seated = [player, other] if seat == 0 else [other, player]
        winner = play_game(rules, seated, seed + game).final.outcome.winner
        counts["drawn" if winner is None else "won" if winner == seat else "lost"] += 1
    return {kind: wilson(count, games).as_dict() for kind, count in counts.items()}


# -- 2. self-play ---------------------------------------------------------------------------

class SelfPlay(BaseCallback):  # type: ignore[misc]
    """Keeps each self-play game's result per kind of opponent, adds a frozen version of the
    learner to the pool every ``every`` updates, and stops after ``budget`` CPU seconds."""

    def __init__(self, rules: sm.RuleBook, pool: list[str], budget: float,
                 every: int) -> None:
        super().__init__()
        self.rules, self.pool, self.budget, self.every = rules, pool, budget, every
        self.results: dict[str, list[tuple[int, float]]] = {kind: [] for kind, _ in MIX}
        self.kept: list[tuple[str, dict[str, np.ndarray]]] = []
        self.start, self.updates = time.process_time(), 0

    def _on_step(self) -> bool:
        for index, done in enumerate(self.locals["dones"]):
            if done:
                kind = self.training_env.envs[index].kind
                self.results[kind].append((self.num_timesteps,
                                           float(self.locals["rewards"][index])))
        return time.process_time() - self.start < self.budget

    def _on_rollout_end(self) -> None:
        self.updates += 1
        if self.updates % self.every == 0:
            arrays = export(self.model, self.rules)
            name = f"pool{len(self.pool)}"
            players.PLAYERS[name] = lambda seed, arrays=arrays: numpy_player(arrays)
            self.pool.append(name)
            self.kept.append((f"{name} at {self.num_timesteps} steps", arrays))


def plot(history: list[dict[str, float]], curve: SelfPlay, path: Path,
         window: int = 200) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.plot([row["loss"] for row in history], label="training loss")
    left.plot([row["held_out_accuracy"] for row in history], label="held-out accuracy")
    left.set_xlabel("imitation epoch")
    left.set_title("1. imitating the heuristic bot")
    left.legend()
    left.grid(alpha=0.3)
    for kind, results in curve.results.items():
        if len(results) < window:
            continue
        steps = np.array([step for step, _ in results])
        wins = np.array([reward > 0 for _, reward in results], float)
        rate = np.convolve(wins, np.ones(window) / window, mode="valid")
        right.plot(steps[window - 1:], rate, label=f"against {kind}")
    right.set_xlabel("self-play environment steps")
    right.set_ylabel(f"win rate ({window}-game window)")
    right.set_ylim(0, 1)
    right.set_title("2. MaskablePPO self-play (blackwood-frey, 2 seats)")
    right.grid(alpha=0.3)
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def make_env(payoff_size: int, seat: int, pool: list[str], seed: int) -> gymnasium.Env:
    env = gymnasium.make(ENV_ID, opponents="heuristic", reward="win-loss", seat=seat,
                         payoff_size=payoff_size).unwrapped
    return Scaled(env, pool, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payoff-size", type=int, default=26)
    parser.add_argument("--imitation-games", type=int, default=1500)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--ppo-minutes", type=float, default=25.0)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="bench/out/train")
    parser.add_argument("--ship", default="")
    args = parser.parse_args()
    torch.set_num_threads(1)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rules = sm.load("blackwood-frey", params={"payoff_size": args.payoff_size})
    report: dict[str, Any] = {"payoff_size": args.payoff_size, "seed": args.seed}
    clock = time.process_time()
    data = imitation_data(rules, args.imitation_games, args.seed * 1_000_000)
    report["imitation_decisions"] = len(data["action"])
    report["data_cpu_seconds"] = round(time.process_time() - clock, 1)
    print("data", report, flush=True)
    pool: list[str] = []
    vec = DummyVecEnv([lambda i=i: make_env(args.payoff_size, i % 2, pool, args.seed + i)
                       for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", vec, seed=args.seed, n_steps=512, batch_size=512,
                        n_epochs=4, learning_rate=1e-4, ent_coef=0.003, clip_range=0.1,
                        gamma=0.995, policy_kwargs={"net_arch": {"pi": HIDDEN, "vf": VALUE}},
                        verbose=0)
    clock = time.process_time()
    history = imitate(model, data, args.epochs, args.seed)
    report["imitation"] = history
    report["imitation_cpu_seconds"] = round(time.process_time() - clock, 1)
    print("imitation", history[-1], report["imitation_cpu_seconds"], flush=True)
    candidates = [("imitation", export(model, rules))]
    curve = SelfPlay(rules, pool, args.ppo_minutes * 60, every=20)
    clock = time.process_time()
    model.learn(total_timesteps=100_000_000, callback=curve)
    report["ppo_cpu_seconds"] = round(time.process_time() - clock, 1)
    report["ppo_steps"] = int(model.num_timesteps)
    report["ppo_games"] = {kind: len(rows) for kind, rows in curve.results.items()}
    spaced = curve.kept[len(curve.kept) % 4::max(1, len(curve.kept) // 4)]
    candidates += spaced[-4:] + [("final", export(model, rules))]
    plot(history, curve, out.with_suffix(".png"))
    choose(rules, candidates, args, report, out)


def choose(rules: sm.RuleBook, candidates: list[tuple[str, dict[str, np.ndarray]]],
           args: argparse.Namespace, report: dict[str, Any], out: Path) -> None:
    """Evaluate each candidate against the heuristic bot; ship the best."""
    clock = time.process_time()
    scores = {}
    for name, arrays in candidates:
        result = evaluate(rules, numpy_player(arrays), "heuristic", args.eval_games, 50_000)
        scores[name] = result
        print("eval", name, result["won"], flush=True)
    best = max(scores, key=lambda name: scores[name]["won"]["estimate"])
    report["against_heuristic"] = scores
    report["shipped"] = best
    report["eval_cpu_seconds"] = round(time.process_time() - clock, 1)
    out.with_suffix(".json").write_text(json.dumps(report, indent=2))
    arrays = dict(candidates)[best]
    np.savez_compressed(out.with_suffix(".npz"), **arrays)
    if args.ship:
        np.savez_compressed(args.ship, **arrays)
    print(json.dumps({k: v for k, v in report.items() if k != "imitation"}, indent=2))


if __name__ == "__main__":
    main()
