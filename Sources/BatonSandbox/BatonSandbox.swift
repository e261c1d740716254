// BatonSandbox: see ARCHITECTURE.md for what lives here.
