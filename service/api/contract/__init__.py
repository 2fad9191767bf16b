"""openapi.yaml as the contract at run time: the spec loaded once and every request validated against it.

Pure validation, no Flask: the app hands it a request's parts and maps the
faults it finds to a 400 problem.
"""
