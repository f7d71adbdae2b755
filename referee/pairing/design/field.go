package design

// field is GF(q), q = p^n: its elements are the integers 0..q-1 read as
// polynomials over GF(p) of degree below n (digit i base p is the
// coefficient of x^i), multiplied modulo the first monic irreducible
// polynomial of degree n in that order. Arithmetic is computed as asked,
// without tables, so that a large field costs only what is used of it.
type field struct {
	q, p, n   int
	modulus   []int // the low coefficients r_0..r_{n-1} of x^n = -(r_0 + ... + r_{n-1}x^{n-1})
	primitive int   // a generator of the multiplicative group
}

// primePower returns p and n with q = p^n, or ok false.
func primePower(q int) (p, n int, ok bool) {
	if q < 2 {
		return 0, 0, false
	}
	for p = 2; p*p <= q && q%p != 0; p++ {
	}
	if q%p != 0 {
		p = q
	}
	for m := q; m > 1; m /= p {
		if m%p != 0 {
			return 0, 0, false
		}
		n++
	}
	return p, n, true
}

// newField returns GF(q), or ok false when q is not a prime power.
func newField(q int) (*field, bool) {
	p, n, ok := primePower(q)
	if !ok {
		return nil, false
	}
	f := &field{q: q, p: p, n: n}
	// The first monic polynomial of degree n with no monic factor of
	// degree 1..n/2.
	for r := range q {
		poly := append(f.digits(r), 1)
		if f.irreducible(poly) {
			f.modulus = poly[:n]
			break
		}
	}
	// The first element whose order is q-1: x^((q-1)/l) ≠ 1 for every
	// prime l dividing q-1.
	var primes []int
	for m, l := q-1, 2; m > 1; l++ {
		if m%l == 0 {
			primes = append(primes, l)
			for m%l == 0 {
				m /= l
			}
		}
	}
	for g := 1; g < q; g++ {
		gen := true
		for _, l := range primes {
			if f.pow(g, (q-1)/l) == 1 {
				gen = false
				break
			}
		}
		if gen {
			f.primitive = g
			break
		}
	}
	return f, true
}

func (f *field) digits(a int) []int {
	d := make([]int, f.n)
	for i := range d {
		d[i], a = a%f.p, a/f.p
	}
	return d
}

func (f *field) number(d []int) int {
	a := 0
	for i := f.n - 1; i >= 0; i-- {
		a = a*f.p + d[i]
	}
	return a
}

// irreducible reports whether the monic polynomial poly (coefficients
// from x^0) has no monic factor of degree 1 to deg/2 over GF(p).
func (f *field) irreducible(poly []int) bool {
	p, deg := f.p, len(poly)-1
	for d := 1; 2*d <= deg; d++ {
		count := 1
		for range d {
			count *= p
		}
		for c := range count {
			div := make([]int, d+1)
			for i := range d {
				div[i], c = c%p, c/p
			}
			div[d] = 1
			// The remainder of poly by the monic div.
			rem := append([]int(nil), poly...)
			for k := deg; k >= d; k-- {
				lead := rem[k]
				for i := range d + 1 {
					rem[k-d+i] = ((rem[k-d+i]-lead*div[i])%p + p) % p
				}
			}
			zero := true
			for _, x := range rem[:d] {
				zero = zero && x == 0
			}
			if zero {
				return false
			}
		}
	}
	return true
}

func (f *field) plus(a, b int) int {
	p := f.p
	if f.n == 1 {
		return (a + b) % p
	}
	sum, unit := 0, 1
	for range f.n {
		sum += (a%p + b%p) % p * unit
		a, b, unit = a/p, b/p, unit*p
	}
	return sum
}

func (f *field) neg(a int) int {
	p := f.p
	if f.n == 1 {
		return (p - a) % p
	}
	out, unit := 0, 1
	for range f.n {
		out += (p - a%p) % p * unit
		a, unit = a/p, unit*p
	}
	return out
}

// maxDegree bounds n: fields of up to 2^11 elements.
const maxDegree = 11

func (f *field) times(a, b int) int {
	p, n := f.p, f.n
	if n == 1 {
		return a * b % p
	}
	var da, db [maxDegree]int
	var prod [2 * maxDegree]int
	for i := range n {
		da[i], a = a%p, a/p
		db[i], b = b%p, b/p
	}
	for i := range n {
		for j := range n {
			prod[i+j] = (prod[i+j] + da[i]*db[j]) % p
		}
	}
	// x^k = x^(k-n) · x^n = -x^(k-n) · (r_0 + ... + r_{n-1}x^{n-1}).
	for k := 2*n - 1; k >= n; k-- {
		c := prod[k]
		prod[k] = 0
		for i, r := range f.modulus {
			prod[k-n+i] = ((prod[k-n+i]-c*r)%p + p) % p
		}
	}
	return f.number(prod[:n])
}

// pow returns a to the k-th.
func (f *field) pow(a, k int) int {
	x := 1
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			x = f.times(x, a)
		}
		a = f.times(a, a)
	}
	return x
}

// power returns the primitive element to the k-th.
func (f *field) power(k int) int { return f.pow(f.primitive, k%(f.q-1)) }
