"""The Optuna study of a ``spitemalice tune`` search on disk: made in the search's folder, or
resumed from its journal, its settings kept beside it (``tune.json``) so that a resumed
search is the same search (:mod:`spitemalice.study.tune` runs it)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spitemalice import files, limits, wording
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.files import make_folder, write_file
from spitemalice.formats import strict_json
from spitemalice.formats.json_input import parse_json

if TYPE_CHECKING:
    from spitemalice.study.tune import Search

JOURNAL = "journal.log"
SETTINGS = "tune.json"
STUDY = "tune"
LATER = ("budget", "recheck", "recheck_games")
"""Settings a resumed search may change (``tune.json`` leaves them out)."""


def load_optuna() -> Any:
    """Optuna, its log quiet and its experimental warnings off.

    Raises:
        SpiteMaliceError: Optuna is missing (the message says what to install).
    """
    try:
        import optuna
    except ImportError:
        raise SpiteMaliceError("tune needs Optuna: pip install 'spitemalice[tune]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


def _read_kept(path: Path) -> bytes:
    try:
        return files.read_file(path, limits.MAX_JSON_BYTES // 64)
    except files.FileRefused as error:
        raise DataError(f"{wording.for_terminal(str(path))}: cannot read the search's "
                        f"settings: {error}") from None


def open_study(search: Search, folder: Path) -> Any:
    """The Optuna study of ``search`` in ``folder`` (made, or resumed from its journal).

    Raises:
        SpiteMaliceError: the folder holds a search with other settings, or Optuna is
            missing.
        OutputError: the folder cannot be made (a file of that name is there, say).
    """
    optuna = load_optuna()
    make_folder(folder, what="the search's folder")
    kept = folder / SETTINGS
    # The budget and the re-evaluation do not change what a trial plays: a larger budget
    # goes on with the same search.
    settings = {key: value for key, value in search.as_dict().items() if key not in LATER}
    settings = strict_json.loads(strict_json.dumps(settings))
    if kept.exists():
        # A hand-edited settings file is read as strictly as a record: a key named twice,
        # text that is not JSON or a file too large is refused by name (DataError)
        before = parse_json(_read_kept(kept), str(kept))
        if before != settings:
            raise SpiteMaliceError(f"{folder} holds a search with other settings ({kept}); "
                                   "give the same settings to resume it, or another --out")
    else:
        write_file(kept, strict_json.dumps(settings, indent=1, sort_keys=True) + "\n",
                   force=True, what="the search's settings")
    backend = optuna.storages.journal.JournalFileBackend(str(folder / JOURNAL))
    storage = optuna.storages.JournalStorage(backend)
    sampler = optuna.samplers.TPESampler(seed=derive_seed(search.seed, "tune-sampler") % 2**32,
                                         n_startup_trials=8, multivariate=True)
    return optuna.create_study(study_name=STUDY, storage=storage, sampler=sampler,
                               direction="minimize", load_if_exists=True)


__all__ = ["JOURNAL", "LATER", "SETTINGS", "STUDY", "load_optuna", "open_study"]
