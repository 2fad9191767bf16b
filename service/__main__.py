"""`python -m service` and the `patchwork-service` console script: gunicorn (and Redis) under a supervisor."""

from service.runner import main

if __name__ == "__main__":
    main()
