"""Clients of outside services: SMTP, SMS, Stripe, Web Push, WhatsApp, GeoNames."""
