package game

import (
	"fmt"
	"math/bits"
)

// Trades (§7): between players and with the bank, at the rates the
// harbours give.

func (s *State) trade(p, q int, give, get Cards) error {
	if q < 0 || q >= int(s.n) {
		return broken("move-field-missing", "§7 ア", "a trade names the player traded with", map[string]any{"Do": "trade", "Field": "with"})
	}
	if q == p {
		return broken("trade-self", "§7 ア", "a player cannot trade with themselves", map[string]any{"Player": s.names[p]})
	}
	if err := s.checkTrade(give, get, "§7 ア"); err != nil {
		return err
	}
	if err := s.holds(p, give, "§7 ア"); err != nil {
		return err
	}
	if err := s.holds(q, get, "§7 ア"); err != nil {
		return err
	}
	s.players[p].hand.take(give)
	s.players[q].hand.add(give)
	s.players[q].hand.take(get)
	s.players[p].hand.add(get)
	return nil
}

// checkTrade refuses giving for nothing and one resource on both sides (§7).
func (s *State) checkTrade(give, get Cards, section string) error {
	if err := s.checkCards(give, section); err != nil {
		return err
	}
	if err := s.checkCards(get, section); err != nil {
		return err
	}
	if give.Total() == 0 || get.Total() == 0 {
		// §7: giving cards away for nothing is not a trade.
		return broken("trade-one-sided", section, "a trade has cards on both sides", nil)
	}
	for r := range give {
		if give[r] > 0 && get[r] > 0 {
			// §7 ア: offering and asking for the same resource is forbidden.
			return broken("trade-same-resource", section, fmt.Sprintf("%s is both given and asked for", Resource(r)),
				map[string]any{"Resource": Resource(r).String()})
		}
	}
	return nil
}

// rate returns the best rate player p owns for resource r (§7 イ, ウ): what
// the player pays the bank for one card at best.
func (s *State) rate(p int, r Resource) int8 {
	switch rates := s.rates(p, r); {
	case rates&(1<<2) != 0:
		return 2
	case rates&(1<<3) != 0:
		return 3
	}
	return 4
}

// rates returns the rates player p may trade resource r at with the bank,
// bit k for k:1: 4:1 with anyone (§7 イ), 3:1 with a building at a 3:1
// harbour, 2:1 with one at the 2:1 harbour of r (§7 ウ).
func (s *State) rates(p int, r Resource) uint8 {
	ports := s.players[p].ports
	rates := uint8(1 << 4)
	if ports&1 != 0 {
		rates |= 1 << 3
	}
	if ports&(1<<(1+r)) != 0 {
		rates |= 1 << 2
	}
	return rates
}

// tradeUnits returns, bit u for u cards, what k identical cards buy from
// the bank as trades at the rates given (bit r for r:1), each trade one
// card; 0 when k cards are no whole number of trades.
func tradeUnits(k int8, rates uint8) uint64 {
	// buys[c] is what exactly c cards buy, as bits.
	var buys [bankStock + 1]uint64
	buys[0] = 1
	for c := 1; c <= int(k); c++ {
		for rate := 2; rate <= 4; rate++ {
			if rates&(1<<rate) != 0 && c >= rate {
				buys[c] |= buys[c-rate] << 1
			}
		}
	}
	return buys[k]
}

// tradeTable is tradeUnits for every count of one resource and every set
// of rates (indexed by rates>>2), so that playing a bank trade is a lookup.
var tradeTable = func() (t [8][bankStock + 1]uint64) {
	for i := range t {
		for k := range t[i] {
			t[i][k] = tradeUnits(int8(k), uint8(i<<2))
		}
	}
	return t
}()

func (s *State) bankTrade(p int, give, get Cards) error {
	if err := s.checkTrade(give, get, "§7 イ"); err != nil {
		return err
	}
	// §7 イ, ウ: each card got is one trade of identical cards, 4:1 or at a
	// harbour the player owns. Ruling: the best rate is the player's right,
	// not a duty; a 4:1 trade by a harbour's owner is legal, and a record
	// of it stands. Several trades may be one move.
	buys := uint64(1)
	for r, k := range give {
		if k == 0 {
			continue
		}
		units := tradeTable[s.rates(p, Resource(r))>>2][k]
		if units == 0 {
			rate := s.rate(p, Resource(r))
			return broken("bank-rate", "§7 ウ", fmt.Sprintf("%d %s is no whole number of trades at the rates %s owns (best %d:1)", k, Resource(r), s.names[p], rate),
				map[string]any{"Player": s.names[p], "Resource": Resource(r).String(), "Count": int(k), "Rate": int(rate)})
		}
		var sum uint64
		for ; units != 0; units &= units - 1 {
			sum |= buys << bits.TrailingZeros64(units)
		}
		buys = sum
	}
	if asked := get.Total(); asked >= 64 || buys&(1<<asked) == 0 {
		// What the cards buy is a run of numbers: name its end nearest
		// to what was asked.
		least, most := bits.TrailingZeros64(buys), 63-bits.LeadingZeros64(buys)
		units, msg := most, fmt.Sprintf("the cards given buy at most %d, but %d are asked for", most, asked)
		if asked < least {
			units, msg = least, fmt.Sprintf("the cards given buy at least %d, but %d are asked for", least, asked)
		}
		return broken("bank-rate-total", "§7 イ", msg, map[string]any{"Units": units, "Asked": asked})
	}
	if err := s.holds(p, give, "§7 イ"); err != nil {
		return err
	}
	if err := s.bankHolds(get, "§7 イ"); err != nil {
		return err
	}
	s.players[p].hand.take(give)
	s.bank.add(give)
	s.bank.take(get)
	s.players[p].hand.add(get)
	return nil
}

// bankHolds refuses cards the bank does not hold.
func (s *State) bankHolds(c Cards, section string) error {
	for r, k := range c {
		if k > s.bank[r] {
			return broken("bank-short", section, fmt.Sprintf("the bank holds %d %s, not %d", s.bank[r], Resource(r), k),
				map[string]any{"Resource": Resource(r).String(), "Held": int(s.bank[r]), "Count": int(k)})
		}
	}
	return nil
}
