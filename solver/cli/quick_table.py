"""The quick path's table (:mod:`solver.cli.quick`): the common commands'
parameters as the Typer app in :mod:`solver.cli.app` declares them.

Generated; do not edit. After changing a command's options, regenerate it with
``python tests/make_quick_table.py`` (a default-run test, tests/test_fast_path.py,
compares it with the Typer app).
"""

# ruff: noqa: E501
from __future__ import annotations

TYPE_CHECKING = False  # typing is the type checker's alone: importing it costs start-up
if TYPE_CHECKING:
    from typing import Any

TABLE: dict[str, dict[str, Any]] = {
    'id': {
        'body': 'solver.cli.bodies:id_',
        'argument': {'name': 'ranks', 'nargs': -1},
        'options': {'--rules': 'rules', '-r': 'rules', '--format': 'fmt', '-f': 'fmt', '--dialect': 'dialect', '--variant': 'variant', '--max-states': 'max_states', '--numbering': 'numbering'},
        'params': {
            'ranks': {'kind': 'str', 'multiple': True, 'required': True},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text', 'choices': ['text', 'json', 'csv', 'fen', 'shredder', 'epd', 'pgn'], 'callback': 'solver.cli.bodies:check_format'},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'variant': {'kind': 'str', 'multiple': False, 'required': False, 'choices': ['chess', 'crazyhouse', 'bughouse', 'atomic', 'kingofthehill', '3check', 'antichess', 'horde', 'seirawan', 'capablanca'], 'callback': 'solver.cli.bodies:check_variant'},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'position': {
        'body': 'solver.cli.bodies:position',
        'argument': {'name': 'ids', 'nargs': -1},
        'options': {'--rules': 'rules', '-r': 'rules', '--unicode': 'unicode', '-u': 'unicode', '--format': 'fmt', '-f': 'fmt', '--white': 'white', '--black': 'black', '--dialect': 'dialect', '--variant': 'variant', '--max-states': 'max_states', '--numbering': 'numbering'},
        'params': {
            'ids': {'kind': 'str', 'multiple': True, 'required': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'unicode': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text', 'choices': ['text', 'json', 'csv', 'fen', 'shredder', 'epd', 'pgn'], 'callback': 'solver.cli.bodies:check_format'},
            'white': {'kind': 'str', 'multiple': False, 'required': False},
            'black': {'kind': 'str', 'multiple': False, 'required': False},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'variant': {'kind': 'str', 'multiple': False, 'required': False, 'choices': ['chess', 'crazyhouse', 'bughouse', 'atomic', 'kingofthehill', '3check', 'antichess', 'horde', 'seirawan', 'capablanca'], 'callback': 'solver.cli.bodies:check_variant'},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'convert': {
        'body': 'solver.cli.bodies:convert',
        'argument': {'name': 'values', 'nargs': -1},
        'options': {'--from': 'source', '--to': 'target', '--rules': 'rules', '-r': 'rules'},
        'params': {
            'values': {'kind': 'str', 'multiple': True, 'required': True},
            'source': {'kind': 'str', 'multiple': False, 'required': False},
            'target': {'kind': 'str', 'multiple': False, 'required': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
        },
    },
    'random': {
        'body': 'solver.cli.bodies:random_',
        'argument': None,
        'options': {'-n': 'count', '--count': 'count', '--distinct': 'distinct', '--exclude': 'exclude', '-x': 'exclude', '--seed': 'seed', '--rules': 'rules', '-r': 'rules', '--unicode': 'unicode', '-u': 'unicode', '--format': 'fmt', '-f': 'fmt', '--dialect': 'dialect', '--variant': 'variant', '--max-states': 'max_states', '--numbering': 'numbering', '--balanced': 'balanced', '--eval-table': 'eval_table', '--certificate': 'certificate'},
        'params': {
            'count': {'kind': 'int', 'multiple': False, 'required': False, 'default': 1, 'min': 1},
            'distinct': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'exclude': {'kind': 'str', 'multiple': True, 'required': False},
            'seed': {'kind': 'str', 'multiple': False, 'required': False, 'callback': 'solver.cli.bodies:check_seed'},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'unicode': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text', 'choices': ['text', 'json', 'csv', 'fen', 'shredder', 'epd', 'pgn'], 'callback': 'solver.cli.bodies:check_format'},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'variant': {'kind': 'str', 'multiple': False, 'required': False, 'choices': ['chess', 'crazyhouse', 'bughouse', 'atomic', 'kingofthehill', '3check', 'antichess', 'horde', 'seirawan', 'capablanca'], 'callback': 'solver.cli.bodies:check_variant'},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
            'balanced': {'kind': 'str', 'multiple': False, 'required': False},
            'eval_table': {'kind': 'str', 'multiple': True, 'required': False},
            'certificate': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'show': {
        'body': 'solver.cli.bodies:show',
        'argument': {'name': 'position_', 'nargs': 1},
        'options': {'--rules': 'rules', '-r': 'rules', '--svg': 'svg', '--letters': 'letters', '-l': 'letters'},
        'params': {
            'position_': {'kind': 'str', 'multiple': False, 'required': True},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'svg': {'kind': 'str', 'multiple': False, 'required': False},
            'letters': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
        },
    },
    'rules': {
        'body': 'solver.cli.bodies:rules_',
        'argument': None,
        'options': {'--numberings': 'numberings', '--rules': 'rules', '-r': 'rules'},
        'params': {
            'numberings': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'plan': {
        'body': 'solver.cli.bodies:plan_',
        'argument': None,
        'options': {'--rounds': 'rounds', '--seed': 'seed', '--exclude': 'exclude', '-x': 'exclude', '--exclude-mirrors': 'mirrors', '--rules': 'rules', '-r': 'rules', '--format': 'table', '-f': 'table', '--svg-dir': 'svg_dir', '--dialect': 'dialect', '--variant': 'variant', '--max-states': 'max_states', '--numbering': 'numbering', '--balanced': 'balanced', '--eval-table': 'eval_table', '--certificate': 'certificate', '--html': 'html'},
        'params': {
            'rounds': {'kind': 'int', 'multiple': False, 'required': True, 'min': 1},
            'seed': {'kind': 'str', 'multiple': False, 'required': False, 'callback': 'solver.cli.bodies:check_seed'},
            'exclude': {'kind': 'str', 'multiple': True, 'required': False},
            'mirrors': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'table': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'markdown'},
            'svg_dir': {'kind': 'str', 'multiple': False, 'required': False},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'variant': {'kind': 'str', 'multiple': False, 'required': False, 'choices': ['chess', 'crazyhouse', 'bughouse', 'atomic', 'kingofthehill', '3check', 'antichess', 'horde', 'seirawan', 'capablanca'], 'callback': 'solver.cli.bodies:check_variant'},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
            'balanced': {'kind': 'str', 'multiple': False, 'required': False},
            'eval_table': {'kind': 'str', 'multiple': True, 'required': False},
            'certificate': {'kind': 'str', 'multiple': False, 'required': False},
            'html': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'check': {
        'body': 'solver.cli.bodies:check',
        'argument': None,
        'options': {'--rules': 'rules', '-r': 'rules', '--all': 'all_', '--max-arrangements': 'max_arrangements', '--max-states': 'max_states'},
        'params': {
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'all_': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'max_arrangements': {'kind': 'int', 'multiple': False, 'required': False, 'default': 6000000, 'min': 1},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
        },
    },
    'solve': {
        'body': 'solver.cli.bodies:solve',
        'argument': None,
        'options': {'--count': 'count', '--rules': 'rules', '-r': 'rules', '--unicode': 'unicode', '-u': 'unicode', '--max-arrangements': 'max_arrangements', '--max-states': 'max_states', '--format': 'fmt', '-f': 'fmt', '--dialect': 'dialect', '--variant': 'variant', '--numbering': 'numbering'},
        'params': {
            'count': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'unicode': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'max_arrangements': {'kind': 'int', 'multiple': False, 'required': False, 'default': 6000000, 'min': 1},
            'max_states': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1, 'callback': 'solver.cli.bodies:set_max_states'},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text', 'choices': ['text', 'json', 'csv', 'fen', 'shredder', 'epd', 'pgn'], 'callback': 'solver.cli.bodies:check_format'},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'variant': {'kind': 'str', 'multiple': False, 'required': False, 'choices': ['chess', 'crazyhouse', 'bughouse', 'atomic', 'kingofthehill', '3check', 'antichess', 'horde', 'seirawan', 'capablanca'], 'callback': 'solver.cli.bodies:check_variant'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'lint': {
        'body': 'solver.cli.bodies:lint',
        'argument': {'name': 'files', 'nargs': -1},
        'options': {'--fix': 'fix', '--dialect': 'dialect', '--variant': 'variant', '--rules': 'rules', '-r': 'rules', '--quiet': 'quiet', '-q': 'quiet', '--verbose': 'verbose', '--numbering': 'numbering', '--complete': 'complete'},
        'params': {
            'files': {'kind': 'str', 'multiple': True, 'required': False},
            'fix': {'kind': 'str', 'multiple': False, 'required': False},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False},
            'variant': {'kind': 'str', 'multiple': False, 'required': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False},
            'quiet': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'verbose': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
            'complete': {'kind': 'flag', 'multiple': False, 'required': False, 'default': False},
        },
    },
    'which': {
        'body': 'solver.cli.bodies:which',
        'argument': {'name': 'positions', 'nargs': -1},
        'options': {'--rules': 'rules', '-r': 'rules', '--format': 'fmt', '-f': 'fmt'},
        'params': {
            'positions': {'kind': 'str', 'multiple': True, 'required': True},
            'rules': {'kind': 'str', 'multiple': True, 'required': False},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text'},
        },
    },
    'compare': {
        'body': 'solver.cli.bodies:compare',
        'argument': {'name': 'file', 'nargs': 1},
        'options': {'--rules': 'rules', '-r': 'rules', '--format': 'fmt', '-f': 'fmt', '--limit': 'limit', '--numbering': 'numbering'},
        'params': {
            'file': {'kind': 'str', 'multiple': False, 'required': True},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text'},
            'limit': {'kind': 'int', 'multiple': False, 'required': False, 'default': 20, 'min': 0},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
    'book': {
        'body': 'solver.cli.bodies:book',
        'argument': None,
        'options': {'--rules': 'rules', '-r': 'rules', '--output': 'output', '-o': 'output', '--format': 'fmt', '-f': 'fmt', '--dialect': 'dialect', '--numbering': 'numbering', '--ids': 'ids', '--sample': 'sample', '--seed': 'seed', '--pairs': 'pairs', '--workers': 'workers', '--worker': 'worker'},
        'params': {
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'output': {'kind': 'str', 'multiple': False, 'required': False},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'epd'},
            'dialect': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'xfen', 'choices': ['xfen', 'shredder', 'lichess', 'fsf', 'pychess'], 'callback': 'solver.cli.bodies:check_dialect'},
            'numbering': {'kind': 'str', 'multiple': False, 'required': False},
            'ids': {'kind': 'str', 'multiple': False, 'required': False},
            'sample': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1},
            'seed': {'kind': 'str', 'multiple': False, 'required': False, 'callback': 'solver.cli.bodies:check_seed'},
            'pairs': {'kind': 'str', 'multiple': False, 'required': False},
            'workers': {'kind': 'int', 'multiple': False, 'required': False, 'default': 1, 'min': 1},
            'worker': {'kind': 'int', 'multiple': False, 'required': False, 'default': 1, 'min': 1},
        },
    },
    'eval': {
        'body': 'solver.cli.bodies:eval_',
        'argument': {'name': 'positions', 'nargs': -1},
        'options': {'--rules': 'rules', '-r': 'rules', '--format': 'fmt', '-f': 'fmt', '--eval-table': 'eval_table', '--engine': 'engine', '--nodes': 'nodes', '--depth': 'depth', '--ids': 'ids', '--jobs': 'jobs', '-j': 'jobs', '--output': 'output', '-o': 'output', '--timeout': 'timeout'},
        'params': {
            'positions': {'kind': 'str', 'multiple': True, 'required': False},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text'},
            'eval_table': {'kind': 'str', 'multiple': True, 'required': False},
            'engine': {'kind': 'str', 'multiple': False, 'required': False},
            'nodes': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1},
            'depth': {'kind': 'int', 'multiple': False, 'required': False, 'min': 1},
            'ids': {'kind': 'str', 'multiple': False, 'required': False},
            'jobs': {'kind': 'int', 'multiple': False, 'required': False, 'default': 1, 'min': 1},
            'output': {'kind': 'str', 'multiple': False, 'required': False},
            'timeout': {'kind': 'other', 'multiple': False, 'required': False, 'default': 600.0, 'min': 1},
        },
    },
    'games stats': {
        'body': 'solver.cli.bodies:stats',
        'argument': {'name': 'files', 'nargs': -1},
        'options': {'--rules': 'rules', '-r': 'rules', '--format': 'fmt', '-f': 'fmt', '--tag': 'number_tag'},
        'params': {
            'files': {'kind': 'str', 'multiple': True, 'required': True},
            'rules': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'chess960'},
            'fmt': {'kind': 'str', 'multiple': False, 'required': False, 'default': 'text'},
            'number_tag': {'kind': 'str', 'multiple': False, 'required': False},
        },
    },
}
