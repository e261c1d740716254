# Baton — see README.md. Every target installs what it is missing first.
SWIFT      ?= swift
BUILD_FLAGS ?=
BATON      := .build/debug/baton
FUZZ_SECONDS ?= 60

.PHONY: help deps build test lint format demo bench soak fuzz docs clean

help:
	@echo "make demo    build and walk all three journeys on embedded defaults (SQLite + built-in sandbox)"
	@echo "make test    install what is missing, start the test services, run every test"
	@echo "make bench   benchmarks, printed as ratios against a reference measured in the same run"
	@echo "make soak    long reliability runs, then the mixed soak with faults cycling (SOAK_TIMEOUT); see docs/reliability.md"
	@echo "make lint    swift format lint, node --check, OpenAPI validation, ruff over scripts/;  make format  rewrite in house style"
	@echo "make fuzz    libFuzzer over the return-link parsers, the projection decoder and the server's readers (FUZZ_SECONDS each)"
	@echo "make docs    DocC API reference into .build/docs"
	@echo "make clean   remove build products and local state"

deps:
	scripts/install-deps

build:
	scripts/install-deps --build
	$(SWIFT) build $(BUILD_FLAGS)

lint: deps
	$(SWIFT) format lint --strict -r Package.swift Plugins Sources Tests Stubs examples/ios-app
	@# swift-format has no inheritance: Sources/.swift-format is the root file with two more rules on, and must stay so.
	python3 -c 'import json, sys; root = json.load(open(".swift-format")); root["rules"].update(NeverForceUnwrap=True, NeverUseForceTry=True); sys.exit(root != json.load(open("Sources/.swift-format")) and "Sources/.swift-format must be .swift-format with NeverForceUnwrap and NeverUseForceTry on")'
	node --check Sources/BatonServer/Web/Files/shell.js
	.venv/bin/openapi-spec-validator Sources/BatonServer/OpenAPI/openapi.json
	.venv/bin/ruff check scripts

format:
	$(SWIFT) format format -i -r Package.swift Plugins Sources Tests Stubs examples/ios-app

test: deps lint
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	python3 scripts/versions.py check
	scripts/with-postgres $(SWIFT) test $(BUILD_FLAGS) --skip-build
	scripts/typecheck-apple
	scripts/check-privacy-manifest
	scripts/run-suites
	python3 scripts/partner_contracts/test_check_renderer_conformance.py
	python3 scripts/partner_contracts/check_renderer_conformance.py --require swift --require web --require kotlin --require typescript

demo: build
	$(BATON) demo

bench: deps
	$(SWIFT) build -c release
	scripts/bench

soak: deps
	$(SWIFT) build $(BUILD_FLAGS) --product baton
	scripts/soak

fuzz:
	scripts/install-deps --build
	scripts/fuzz --each $(FUZZ_SECONDS)

docs:
	scripts/docs

clean:
	rm -rf .build .build-* .baton artifacts
