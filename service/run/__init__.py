"""The processes of the service: what starts, supervises and stops them.

`patchwork-service` (runner.py) runs, as children it restarts when they die
(supervisor.py): the embedded Redis when REDIS_URL is unset (embedded.py,
with redis_process.py and dir_lock.py), gunicorn with its settings
(gunicorn_conf.py) and its gevent worker class (gunicorn_worker.py), the
timekeepers and the bot workers. Nothing below the API imports this package.
"""
