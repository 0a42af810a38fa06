/* exercises/03-threads/bank.h: exercise 3.3, a bug hunt (see README.md).
 *
 * The bank's library (given; the checker links its own copy) keeps the
 * balances, each account behind its own lock. Your exercises/03-threads/bank.c
 * is the program that uses it: run_transfers(), which is said to work but
 * has one bug. The checker (check_bank.c) and the solution include this
 * same header. */
#ifndef PW_EX_BANK_H
#define PW_EX_BANK_H

#include <stddef.h>

typedef struct bank bank;   /* the accounts and their locks (the library's) */

#define FEE_ACCOUNT 0       /* the bank's own account, where fees are paid */
#define BANK_MAX_THREADS 64

/* Account a's lock, 0 <= a < bank_accounts(b). A thread may hold several
 * locks at once; locking one it already holds is an error. */
void account_lock(bank *b, int a);
void account_unlock(bank *b, int a);

/* Account a's balance in cents, and a change to it. The caller must hold
 * account a's lock. Balances may go below zero (overdrafts are allowed). */
long long account_balance(bank *b, int a);
void account_add(bank *b, int a, long long cents);

int bank_accounts(const bank *b);

/* One payment: `cents` (> 0) from customer account `from` to customer
 * account `to` (1 <= from, to < bank_accounts, from != to). The sender also
 * pays a fee of fee_of(cents) into FEE_ACCOUNT. */
typedef struct {
    int from, to;
    long long cents;
} transfer;

/* 1% of the amount, rounded down, at least 1 cent. */
static inline long long fee_of(long long cents) { return cents / 100 > 0 ? cents / 100 : 1; }

/* Apply t[0 .. n-1] to the bank on `threads` threads (1 to BANK_MAX_THREADS;
 * more threads than transfers is allowed), thread k taking the k-th of
 * `threads` contiguous blocks of transfers (the first n % threads blocks one
 * transfer longer). Every transfer is applied exactly once; since sums do
 * not depend on their order, the final balances equal those of applying
 * the transfers one after another. n may be 0. */
void run_transfers(bank *b, const transfer *t, size_t n, int threads);

#endif
