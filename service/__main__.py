"""`python -m service` and the `patchwork-service` console script: gunicorn (and Redis) under a supervisor."""

from service.run.runner import main

if __name__ == "__main__":
    main()
