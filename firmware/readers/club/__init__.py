"""A club's tables over MQTT: the publisher each table runs, and the club's page."""
