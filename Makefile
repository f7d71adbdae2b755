# Catan Judge. `make run` starts the server; `make test` runs every test.
GO        ?= go
BIN       := bin/catanjudge
ADDR      ?= 127.0.0.1:8080
DATA      ?= ./data
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
# The tools are built without the build flags the code is checked with
# (.ci/run checks with GOFLAGS=-race, to share the tests' compile).
TOOLFLAGS   := $(filter-out -race,$(GOFLAGS))
# Set by .ci/run so the browser tests fail rather than skip when Chromium is missing,
# the PostgreSQL tests when PostgreSQL is, and the workbook's print test when
# LibreOffice or poppler-utils is.
export CATANJUDGE_REQUIRE_BROWSER
export CATANJUDGE_REQUIRE_POSTGRES
export CATANJUDGE_REQUIRE_LIBREOFFICE
# The packages whose tests run a second time on PostgreSQL (each test binary
# starts a throwaway cluster with Debian's initdb and pg_ctl, a database per test).
POSTGRES_PKGS := ./tournament/ ./tournament/scenario/ ./tournament/store/

.DEFAULT_GOAL := help

.PHONY: help build run test test-race test-postgres e2e fuzz bench lint cover clean

help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  make %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build bin/catanjudge
	$(GO) build -o $(BIN) ./cmd/catanjudge

run: build ## Build and start the server on http://127.0.0.1:8080, data under ./data (ADDR=, DATA= to change)
	./$(BIN) serve --addr $(ADDR) --data $(DATA)

# Each part of make test says how long it took (.ci/run prints its own steps' times).
timed = s=$$(date +%s); $(1); rc=$$?; echo "==> $(2) took $$(( $$(date +%s) - s ))s"; exit $$rc

test: ## Run every test (unit, store, web, browser) with the race detector, the store and service tests again on PostgreSQL, then a short fuzz run
	@$(call timed,$(GO) vet ./...,go vet)
	@$(call timed,$(MAKE) --no-print-directory test-race,test-race)
	@$(call timed,$(MAKE) --no-print-directory test-postgres,test-postgres)
	@$(call timed,$(MAKE) --no-print-directory fuzz,fuzz)

# TESTFLAGS adds go test flags: .ci/run gives -vet=off, as make lint ran go vet.
# The timeout is per test binary: cmd/catanjudge's browser tests run one at
# a time, about 15 minutes under the race detector on a loaded 2-core machine.
# The referee's tests run without the race detector: nothing in referee/...
# runs concurrently (TestNothingRunsConcurrently keeps it so), and under it
# they took 175 s instead of 14.
RACE_FREE := ./referee/...
test-race: ## Run the Go tests with the race detector, the referee's without (TESTFLAGS= adds go test flags)
	GOFLAGS="$(TOOLFLAGS)" $(GO) test -count=1 -timeout 30m $(TESTFLAGS) $(RACE_FREE)
	$(GO) test -race -count=1 -timeout 30m $(TESTFLAGS) $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_FREE))")

test-postgres: ## Run the store and service tests (the scenario's among them) on PostgreSQL
	CATANJUDGE_TEST_DATABASE=postgres $(GO) test -race -count=1 -timeout 10m $(POSTGRES_PKGS)

# Budgets are counts of executions, not durations: with Go 1.26 a duration
# budget can end a clean run with a spurious "context deadline exceeded"
# (golang/go#75804, fixed in Go 1.27); a count never sets that deadline.
# 3000 runs take a second to ten per target here. New inputs found on the
# way are minimised for at most FUZZMINIMIZE runs, so a short run never stalls.
FUZZTIME ?= 3000x
FUZZMINIMIZE ?= 200x
FUZZBIN  := bin/fuzz
# One instrumented test binary per package with fuzz targets, built once and
# run per target from the package's folder (for its testdata/fuzz corpus),
# with go test's own corpus cache; a failing target's log is printed.
fuzz: ## Run each fuzz target for FUZZTIME executions (default 3000x)
	@set -e; mkdir -p $(FUZZBIN); cache="$$($(GO) env GOCACHE)/fuzz"; \
	for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  pkg=$$(cd $$dir && $(GO) list .); bin="$(CURDIR)/$(FUZZBIN)/$$(echo $$pkg | tr / _).test"; \
	  GOFLAGS="$(TOOLFLAGS)" $(GO) test -c -fuzz . -o "$$bin" $$dir; \
	  for f in $$(cd $$dir && "$$bin" -test.list '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; \
	    log="$(CURDIR)/$(FUZZBIN)/$$f.log"; \
	    (cd $$dir && "$$bin" -test.run '^$$' -test.fuzz "^$$f$$" -test.fuzztime $(FUZZTIME) \
	      -test.fuzzminimizetime $(FUZZMINIMIZE) -test.fuzzcachedir "$$cache/$$pkg") > "$$log" 2>&1 || { cat "$$log"; exit 1; }; \
	  done; \
	done

e2e: ## Run only the browser tests
	$(GO) test -race -count=1 -run 'Browser' ./...

# cmd/benchreport runs cmd/kioskbench for the kiosk's row; run that alone
# for its full table (page loads, server memory).
bench: ## Run the benchmarks, then print the report table (as in the README)
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	$(GO) run ./cmd/pairbench
	$(GO) run ./cmd/benchreport -go $(GO)

lint: ## gofmt, go vet, staticcheck and deadcode (no function without a caller: .ci/deadcode)
	@test -z "$$(gofmt -l .)" || (echo "gofmt would change:"; gofmt -l .; exit 1)
	$(GO) vet ./...
	GOFLAGS="$(TOOLFLAGS)" GOBIN="$(CURDIR)/bin" $(GO) install $(STATICCHECK)
	GOFLAGS="$(TOOLFLAGS)" GOBIN="$(CURDIR)/bin" $(GO) install $(DEADCODE)
	bin/staticcheck ./...
	DEADCODE=bin/deadcode GO=$(GO) .ci/deadcode

cover: ## Test with coverage and open the report summary
	$(GO) test -count=1 -coverprofile=cover.out ./...
	$(GO) tool cover -func=cover.out | tail -1

clean: ## Remove build output and test artefacts (not the data folder)
	rm -rf bin cover.out
