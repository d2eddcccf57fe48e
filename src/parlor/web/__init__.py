"""The browser front end: static pages, ES modules, CSS and message catalogs served by parlor.server."""
