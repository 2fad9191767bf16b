"""What wraps every request whatever its route: hooks and WSGI wrappers that create_app installs."""
