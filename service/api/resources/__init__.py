"""The API's blueprints, one per resource; create_app registers them (imported inside the factory)."""
