"""`python -m service` and the `patchwork-service` console script: run under gunicorn."""

from service.runner import main

if __name__ == "__main__":
    main()
