// BatonHTTP: see ARCHITECTURE.md for what lives here.
