"""The evals tab (the routing lab in the app): the project's eval requests, their cost, a run's
progress and report, and each request's detail. The engine does the work (engine/evals)."""
