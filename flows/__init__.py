"""The shipped bots, one package each; pyproject names them under the `innerloop.bots` entry points."""
