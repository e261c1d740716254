// BatonServer: see ARCHITECTURE.md for what lives here.
