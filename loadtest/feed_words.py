"""Words and tags of the feed scenario, shared by the seeding and the locust readers.

Kept free of imports: locust patches the standard library with gevent when imported, so
the harness never imports the locustfile, and the locustfile imports only this.
"""

GROUP_TAGS = ["Jobs", "For sale", "Services", "Housing", "Events", "Help", "Lost & found"]

# Each title names one of these, so a search for any of them matches about 1 post in 24.
NOUNS = [
    "bicycle",
    "piano",
    "sofa",
    "laptop",
    "camera",
    "kayak",
    "violin",
    "wardrobe",
    "tutor",
    "plumber",
    "babysitter",
    "gardener",
    "scooter",
    "aquarium",
    "telescope",
    "sewing",
    "bookshelf",
    "printer",
    "tent",
    "drone",
    "ladder",
    "blender",
    "guitar",
    "mattress",
]

ADJECTIVES = ["used", "vintage", "reliable", "spare", "small", "large", "friendly", "cheap"]

DISTRICTS = ["Centrum", "Oost", "West", "Noord", "Zuid", "De Pijp", "Jordaan", "Nieuw-West"]
