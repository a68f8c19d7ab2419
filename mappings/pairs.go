package mappings

// Fuzz targets pick an ordered pair of distinct dialects with one byte of
// their input; these give the byte its meaning, the same in every package.

// DialectPair names the ordered pair of distinct dialects of the default
// table that n picks (every pair for some n < len²).
func DialectPair(n uint8) (from, to string) {
	ds := Default().Dialects
	k := len(ds)
	i, j := int(n)%k, int(n)/k%k
	if i == j {
		j = (j + 1) % k
	}
	return ds[i].Name, ds[j].Name
}

// DialectPairs returns a value of DialectPair for each ordered pair.
func DialectPairs() []uint8 {
	k := len(Default().Dialects)
	var out []uint8
	for j := range k {
		for i := range k {
			if i != j {
				out = append(out, uint8(j*k+i))
			}
		}
	}
	return out
}

// PairOf is the value of DialectPair for from and to; it panics when there
// is no such pair.
func PairOf(from, to string) uint8 {
	for _, n := range DialectPairs() {
		if f, t := DialectPair(n); f == from && t == to {
			return n
		}
	}
	panic("no pair " + from + " → " + to)
}
