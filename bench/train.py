"""Train MaskablePPO (sb3-contrib) on blackwood-frey and report what it learned (not a test).

    python bench/train.py [--steps 500000] [--envs 8] [--payoff-size 5] [--seed 1]
                          [--eval-games 400] [--out bench/out/train]

Needs torch and sb3-contrib, too heavy for any extra of the project: make a separate virtual
environment (``pip install torch==2.13.0 sb3-contrib matplotlib -e '.[rl]'``).

The learner is one seat of a 2-seat game (``gymnasium.make("spitemalice/BlackwoodFrey-v0")``)
with the win/loss reward (+1, -1, 0 for a drawn game), its actions masked by
``action_masks()``.  Half the training environments seat it against the random bot, half
against the greedy bot.  The observation is the environment's array, clipped to 0..63 and
scaled to 0..1.

It prints, and writes to ``OUT.json``: the training budget (environment steps, CPU seconds of
this process), and the learned policy's results over ``--eval-games`` new deals against the
random and against the greedy bot, each seat in turn: win, loss and drawn rates with 95%
Wilson intervals, beside the same for a policy choosing uniformly among the legal actions.
``OUT.png`` is the learning curve: the win rate of training games against each opponent,
over a moving window of 200 games.
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

import spitemalice.env  # noqa: F401  (registers the ids)

sys.path.insert(0, str(Path(__file__).parent))
from bounds import over_cap

from spitemalice.measures.rates import wilson

ENV_ID = "spitemalice/BlackwoodFrey-v0"
CLIP = 63.0


class Scaled(gymnasium.ObservationWrapper):  # type: ignore[misc]
    """The observation array alone, as float32 in 0..1 (counts above 63 clipped); the action
    mask stays with the environment's ``action_masks()``."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        size = env.observation_space["observation"].shape
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, size, np.float32)

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return np.minimum(observation["observation"], CLIP).astype(np.float32) / CLIP

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(opponent: str, payoff_size: int, seat: int = 0) -> gymnasium.Env:
    return Scaled(gymnasium.make(ENV_ID, opponents=opponent, reward="win-loss", seat=seat,
                                 payoff_size=payoff_size).unwrapped)


class Curve(BaseCallback):  # type: ignore[misc]
    """Keeps each finished training game's result per opponent: (steps so far, +1/0/-1)."""

    def __init__(self, opponents: list[str]) -> None:
        super().__init__()
        self.opponents = opponents
        self.results: dict[str, list[tuple[int, float]]] = {kind: [] for kind in opponents}

    def _on_step(self) -> bool:
        for index, done in enumerate(self.locals["dones"]):
            if done:
                self.results[self.opponents[index]].append(
                    (self.num_timesteps, float(self.locals["rewards"][index])))
        return True


def evaluate(policy: Any, opponent: str, games: int, payoff_size: int,
             seed: int) -> dict[str, Any]:
    """Play ``games`` new deals against ``opponent``, the learner in seat 0 and seat 1 in
    turn; ``policy(observation, masks)`` picks an action, or ``None`` for uniform random."""
    rng = random.Random(seed)
    counts = {"won": 0, "lost": 0, "drawn": 0}
    envs = [make_env(opponent, payoff_size, seat) for seat in (0, 1)]
    for game in range(games):
        env = envs[game % 2]
        observation, _ = env.reset(seed=seed + game)
        done, reward, steps = False, 0.0, 0
        while not done:
            steps += 1
            over_cap(steps, "evaluate")  # a bound: bench/bounds.py
            masks = env.action_masks()
            if policy is None:
                action = rng.choice(np.flatnonzero(masks).tolist())
            else:
                action = policy(observation, masks)
            observation, reward, done, _, _ = env.step(action)
        counts["won" if reward > 0 else "lost" if reward < 0 else "drawn"] += 1
    return {kind: wilson(count, games).as_dict() for kind, count in counts.items()}


def plot(curve: Curve, path: Path, window: int = 200) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    for kind, results in curve.results.items():
        if len(results) < window:
            continue
        steps = np.array([step for step, _ in results])
        wins = np.array([reward > 0 for _, reward in results], float)
        rate = np.convolve(wins, np.ones(window) / window, mode="valid")
        axes.plot(steps[window - 1:], rate, label=f"against {kind}")
    axes.set_xlabel("environment steps")
    axes.set_ylabel(f"win rate of training games ({window}-game window)")
    axes.set_ylim(0, 1)
    axes.set_title("MaskablePPO learning blackwood-frey (2 seats)")
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--payoff-size", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--out", default="bench/out/train")
    args = parser.parse_args()
    # One thread: a small network gains nothing from more, and on a shared machine the
    # threads' waiting costs several times the work.
    torch.set_num_threads(1)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    opponents = ["random", "greedy"] * (args.envs // 2)
    vec = DummyVecEnv([lambda kind=kind: make_env(kind, args.payoff_size)
                       for kind in opponents])
    vec.seed(args.seed)
    model = MaskablePPO("MlpPolicy", vec, seed=args.seed, n_steps=256, batch_size=256,
                        learning_rate=3e-4, ent_coef=0.01, gamma=0.998, verbose=0)
    curve = Curve(opponents)
    start = time.process_time()
    model.learn(total_timesteps=args.steps, callback=curve)
    cpu = time.process_time() - start

    def learned(observation: np.ndarray, masks: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=masks, deterministic=True)
        return int(action)

    report: dict[str, Any] = {"steps": args.steps, "train_cpu_seconds": round(cpu, 1),
                              "payoff_size": args.payoff_size, "envs": args.envs,
                              "training_games": {k: len(v) for k, v in curve.results.items()}}
    for opponent in ("random", "greedy"):
        report[f"learned_vs_{opponent}"] = evaluate(learned, opponent, args.eval_games,
                                                    args.payoff_size, 10_000)
        report[f"uniform_vs_{opponent}"] = evaluate(None, opponent, args.eval_games,
                                                    args.payoff_size, 10_000)
    report["total_cpu_seconds"] = round(time.process_time() - start, 1)
    out.with_suffix(".json").write_text(json.dumps(report, indent=2))
    plot(curve, out.with_suffix(".png"))
    model.save(out.with_suffix(".zip"))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
