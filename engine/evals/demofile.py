"""The demo workspace's eval file (`skilldeck --demo evals`): requests for its skills, and one
that no skill should take."""

DEMO_EVALS = """\
# Routing evals for the demo project: which skill should the model call for each request?
# `skilldeck --demo evals --offline` shows the requests and their cost; with an API key, runs them.
requests:
  - request: Review this diff, it changes how we store the API secrets
    expect: security-review
  - request: "Note this: the staging database moves on Friday"
    expect: daily-notes
  - request: Add a GET /invoices endpoint that follows our API rules
    expect: api-conventions
  - request: Draft the release notes for everything since v2.3
    expect: release-notes
  - request: Where in the codebase do we retry failed payments? Give me file references.
    expect: research
  - request: The linter complains about unused imports, fix them
    expect: shared-lint
  - request: Commit what I staged
    expect: git:commit
  - request: What is 17 times 23?
    expect: none
  - request: Write a short poem about spring
    avoid: release-notes
"""
