from agora.core.signing import hash_secret, sign, unsign


def test_signed_values_round_trip_and_tampering_is_detected():
    token = sign("secret", "guest_abc")
    assert unsign("secret", token) == "guest_abc"
    assert unsign("other-secret", token) is None
    assert unsign("secret", token.replace("guest_abc", "guest_abd")) is None
    assert unsign("secret", "no-dot") is None
    assert unsign("secret", ".onlymac") is None


def test_key_hash_is_stable_and_not_the_key():
    assert hash_secret("k") == hash_secret("k")
    assert hash_secret("k") != "k"
    assert hash_secret("k") != hash_secret("K")


def test_a_token_with_a_non_ascii_signature_is_refused_not_an_error():
    # Found by the fuzz: an upload link `8,4Î£.<U+80713>¿` made the comparison raise (a 500).
    assert unsign("secret", "8,4Î£.\U000807d3¿") is None
    assert unsign("secret", "guest_abc." + "é" * 32) is None
