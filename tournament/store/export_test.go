package store

import "context"

// Pragma returns the value of a pragma on one of s's connections.
func Pragma(s *Store, name string) (string, error) {
	var v string
	err := s.db.WithContext(context.Background()).Raw("PRAGMA " + name).Scan(&v).Error
	return v, err
}
