# Catan Judge. `make run` starts the server; `make test` runs every test.
GO        ?= go
BIN       := bin/catanjudge
ADDR      ?= 127.0.0.1:8080
DATA      ?= ./data
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Set by .ci/run so the browser tests fail rather than skip when Chromium is missing.
export CATANJUDGE_REQUIRE_BROWSER

.DEFAULT_GOAL := help

.PHONY: help build run test e2e fuzz bench lint cover clean

help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build bin/catanjudge
	$(GO) build -o $(BIN) ./cmd/catanjudge

run: build ## Build and start the server on http://$(ADDR) with data under $(DATA)
	./$(BIN) serve --addr $(ADDR) --data $(DATA)

test: ## Run every test (unit, store, web, browser) with the race detector, then a short fuzz run
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 15m ./...
	$(MAKE) --no-print-directory fuzz

FUZZTIME ?= 5s
fuzz: ## Run each fuzz target for FUZZTIME (default 5s)
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg > /dev/null; \
	  done; \
	done

e2e: ## Run only the browser tests
	$(GO) test -race -count=1 -run 'Browser' ./...

bench: ## Run the benchmarks and print the report tables
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	$(GO) run ./cmd/pairbench
	$(GO) run ./cmd/kioskbench

lint: ## gofmt, go vet and staticcheck
	@test -z "$$(gofmt -l .)" || (echo "gofmt would change:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

cover: ## Test with coverage and open the report summary
	$(GO) test -count=1 -coverprofile=cover.out ./...
	$(GO) tool cover -func=cover.out | tail -1

clean: ## Remove build output and test artefacts (not the data folder)
	rm -rf bin cover.out
