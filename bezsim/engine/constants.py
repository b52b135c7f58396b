"""Every number the kernels share: card geometry, scoring kinds, history bits, state codes,
params layout and output layout. One table, used everywhere: no magic numbers for card ids
or score kinds in the kernels."""

# --- cards (bezsim.cards holds the text forms) ---------------------------------------------
ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = 0, 1, 2, 3, 4, 5, 6, 7
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
MAX_PLAYERS = 4
MAX_HAND = 16          # room for a hand plus the seat's declared cards
NO_CARD = -1

# --- scoring kinds (event kinds, points-by-source columns) ----------------------------------
K_COMMON_MARRIAGE = 0
K_ROYAL_MARRIAGE = 1
K_SEQUENCE = 2
K_PLAIN_SEQUENCE = 3
K_BEZIQUE = 4
K_DOUBLE_BEZIQUE = 5
K_TRIPLE_BEZIQUE = 6
K_QUADRUPLE_BEZIQUE = 7
K_FOUR_ACES = 8
K_FOUR_KINGS = 9
K_FOUR_QUEENS = 10
K_FOUR_JACKS = 11
K_SEVEN_TURNUP = 12
K_SEVEN_EXCHANGE = 13
K_SEVEN_DECLARE = 14
K_SEVEN_PLAYED = 15
K_BRISQUES = 16
K_LAST_TRICK = 17
K_CARTE_BLANCHE = 18
# six-pack (R7): four of a rank in trumps, K_FOUR_TRUMP_ACES + rank (A, 10, K, Q, J)
K_FOUR_TRUMP_ACES = 19
K_FOUR_TRUMP_TENS = 20
K_FOUR_TRUMP_KINGS = 21
K_FOUR_TRUMP_QUEENS = 22
K_FOUR_TRUMP_JACKS = 23
N_BASE_KINDS = 19      # the kinds of every preset but six-pack (its tables show only these)
N_KINDS = 24
# the kinds that are combinations (declared cards), not sevens, brisques, last trick or
# carte blanche
COMBINATION_KINDS = (*range(K_FOUR_JACKS + 1), *range(K_FOUR_TRUMP_ACES, N_KINDS))

KIND_NAMES = (
    "common_marriage", "royal_marriage", "sequence", "plain_sequence",
    "bezique", "double_bezique", "triple_bezique", "quadruple_bezique",
    "four_aces", "four_kings", "four_queens", "four_jacks",
    "seven_turnup", "seven_exchange", "seven_declare", "seven_played",
    "brisques", "last_trick", "carte_blanche",
    "four_trump_aces", "four_trump_tens", "four_trump_kings", "four_trump_queens",
    "four_trump_jacks",
)
# points of each kind in the ordinary game (R1.8); brisques are per card (10 each)
# (no fours in trumps: 0)
ORDINARY_POINTS = (20, 40, 250, 150, 40, 500, 1500, 4500, 100, 80, 60, 40,
                   10, 10, 10, 10, 10, 10, 50, 0, 0, 0, 0, 0)

# --- per-copy declaration history (R1.1, R1.9) ---------------------------------------------
H_MARRIAGE = 1
H_SEQUENCE = 2
H_BEZ1 = 4
H_BEZ2 = 8
H_BEZ3 = 16
H_BEZ4 = 32
H_FOUR = 64
H_SEVEN = 128
H_TRUMP_FOUR = 256     # six-pack (R7): a four of a rank in trumps
H_CLASS_M = H_MARRIAGE | H_SEQUENCE
H_CLASS_B = H_BEZ1 | H_BEZ2 | H_BEZ3 | H_BEZ4
HIST_NAMES = ("marriage", "sequence", "bezique", "double_bezique", "triple_bezique",
              "quadruple_bezique", "four", "seven", "trump_four")

# --- where a card is (loc array) -----------------------------------------------------------
LOC_STOCK = 0
LOC_TURNUP = 1
LOC_PLAYED = 2       # played to a finished trick
LOC_TRICK = 3        # on the current trick
LOC_HAND = 8         # + seat: in the seat's hand, unseen by others
LOC_TABLE = 16       # + seat: declared (face up) but still the seat's to play (R1.7)
LOC_OPEN = 24        # + seat: the seat's open cards (Polish, R5.1): never played again

# --- what a seat knows of a card (its O_SEEN row, read by policies) -------------------------
V_UNSEEN = 0         # in the stock or in another seat's concealed hand
V_TURNUP = 1
V_PLAYED = 2
V_TRICK = 3
V_MINE = 4           # in my hand, concealed
V_MINE_SHOWN = 5     # in my hand, declared on the table
V_OPEN = 12          # + seat: an open card of that seat (Polish, R5.1)
V_SHOWN = 8          # + seat: known to be held by that seat (declared, drawn turn-up,
                     # or taken in the seven's exchange)

# --- decisions a policy makes --------------------------------------------------------------
D_PLAY = 0           # actions are card ids
D_DECLARE = 1        # actions are declaration codes, A_STOP ends declaring

A_STOP = -1
# declaration action code = kind * 4 + suit (suit used by marriages, else 0)

# --- public scalars (sc array, visible to every policy) ------------------------------------
SC_TRUMP = 0
SC_TURNUP = 1          # card id of the turn-up, NO_CARD once taken
SC_TRICK = 2           # number of the trick being played, 1-based
SC_LEADER = 3
SC_STOCK_LEFT = 4      # face-down cards left in the stock
SC_STAGE = 5           # 1 or 2
SC_DEALER = 6
SC_HAND = 7            # hand number within the game, 0-based
SC_EXCHANGED = 8       # 1 once the seven has been exchanged this hand
SC_N_TRICK = 9         # cards on the current trick
SC_SCORE = 10          # + seat: game score before this hand
SC_HAND_POINTS = 14    # + seat: points scored so far this hand
SC_PACKS = 18          # packs in play (cards are 0 .. 32 * packs - 1)
SC_PLAYERS = 19
SC_VARIANT = 20        # VARIANT_*: the rules being played are public
SC_TRUMP_TRICK = 21    # trick whose declaration fixed trumps (R6.2), TRICK_DEAL for a turn-up
SC_SIZE = 22

# --- params array layout (bezsim.rules builds it) ------------------------------------------
PR_VARIANT = 0
PR_PLAYERS = 1
PR_PACKS = 2
PR_HAND_SIZE = 3
PR_DEAL_B1 = 4
PR_DEAL_B2 = 5
PR_DEAL_B3 = 6
PR_TURNUP = 7
PR_TARGET = 8
PR_STAGE2_DUTY = 9
PR_LAST_TRICK = 10
PR_SEVEN_WHEN = 11
PR_SEVEN_IS_DECL = 12
PR_BRISQUES_WHEN = 13
PR_DOUBLE_GAME = 14
PR_DOUBLE_BEZ = 15
PR_DECL_AFTER_LAST = 16
PR_MARR_TO_SEQ = 17
PR_BEZ_PAIR = 18
PR_BRISQUE_VALUE = 19
PR_HAND_CAP = 20
PR_OPEN_CARDS = 21      # 1: Polish open cards and compound declarations (R5)
PR_TRUMP_BY_MARRIAGE = 22  # 1: no turn-up; the first marriage or sequence fixes trumps (R6.2)
PR_NO_SEVEN = 23        # 1: the seven of trumps scores nothing (R6.3)
PR_PLAIN_SEQUENCE = 24  # 1: sequences in plain suits score (R6.3)
PR_CARTE_BLANCHE = 25   # 1: carte blanche scores (R6.4)
PR_CB_REPEATS = 26      # 1: carte blanche again after each draw without a court card
PR_BRISQUES_ASIDE = 27  # 1: brisques are counted aside, not scored (R6.7)
PR_REUSE = 28           # REUSE_*: which R1.9 / R6.6 reuse rules hold
PR_ONE_HAND_GAME = 29   # 1: a hand is a game, settled by R6.8
PR_BRISQUE_BONUS = 30   # the rubicon's brisque bonus (R6.8)
PR_BEZ_LEVELS = 31      # highest bezique: 2 double, 3 triple, 4 quadruple
PR_PARTNERS = 32        # 1: partners sit opposite and share one score (R4.2)
PR_STAGE2_PAIRS = 33    # 1: stage 2 as two head-to-head endings (R4.2 partnership_stage2=pairs)
PR_REFORM_DOUBLE = 34   # 1: once a Q and a J of a declared double are played, the pair left on
                        #    the table may make a second double with a third pair (R3)
PR_FIRST_SEQ_TRUMPS = 35  # 1: a sequence declared while trumps are undecided is in trumps (R6.2)
PR_CLOSE_BY_POINTS = 36   # 1: rounded totals tied, the unrounded points decide (R6.8 rubicon_close)
PR_RUBICON_LINE = 37      # a loser under this is rubiconed (R6.8: 1000; six-pack R7: 3000)
PR_GAME_BONUS = 38        # a plain win's bonus (R6.8: 500; six-pack: 1000)
PR_RUBICON_GAME_BONUS = 39  # a rubicon's bonus for game (R6.8: 1000)
PR_BRISQUES_COUNT = 40    # 1: brisques decide close scores and save from the rubicon (R6.7)
PR_TRUMP_FOURS = 41       # 1: fours of a rank in trumps score (six-pack, R7)
PR_DEAL_B4 = 42           # a fourth packet of the deal (six-pack: 3-3-3-3), 0 for none
PR_POINTS = 48         # + kind: points of that kind
PARAMS_SIZE = PR_POINTS + N_KINDS

VARIANT_ORDINARY = 0
VARIANT_POLISH = 1
VARIANT_RUBICON = 2
VARIANT_THREE_HANDED = 3
VARIANT_FOUR_HANDED = 4
VARIANT_FOUR_PARTNERS = 5
VARIANT_SIX_PACK = 6
NO_TRUMP = -1            # SC_TRUMP before the first marriage fixes trumps (R6.2)
REUSE_ORDINARY = 0       # R1.9 (Polish: rule 1 only, through PR_OPEN_CARDS)
REUSE_LATER_CLASS = 1    # R6.6: same class upward or a later class; re-forming
REUSE_ANY_CLASS = 2      # R6.6 option any_class
H_EVER_SHIFT = 9         # Rubicon: bits << 9 record every kind a copy ever scored in; the
                         # low bits then mean "part of an intact declared combination"

# option values
DUTY_FOLLOW_AND_WIN = 0
DUTY_FOLLOW_ONLY = 1
LAST_TRICK32 = 0
LAST_TRICK24 = 1
LAST_BOTH = 2
SEVEN_WHEN_DECLARED = 0
SEVEN_WHEN_PLAYED = 1
BRISQUES_END = 0
BRISQUES_WHEN_WON = 1
DOUBLE_GAME_GAME = 0
DOUBLE_GAME_POINTS = 1
DOUBLE_GAME_OFF = 2
DOUBLE_BEZ_ADD_PAIR = 0
DOUBLE_BEZ_ALL_AT_ONCE = 1
BEZ_PAIR_FIXED = 0
BEZ_PAIR_BY_TRUMP = 1
BEZ_PAIR_TRUMP_QUEEN = 2   # the queen of trumps and the jack of the suit of the other colour
                           # paired with it (♠ ♦, ♥ ♣): six-pack (R7)

# --- output layout ----------------------------------------------------------------------------
# hand_seat[g, h, seat, :]
HS_POINTS = 0
HS_SCORE_AFTER = 1
HS_TRICKS_WON = 2
HS_COMBINATIONS = 3    # combinations scored this hand
HS_DECLARING_TRICKS = 4  # tricks won on which at least one combination scored
HS_COMPOUNDS = 5       # tricks won on which two or more combinations scored (R5.2)
HS_BRISQUES = 6        # brisque points taken in tricks (scored or, in Rubicon, aside)
HS_CARTE_BLANCHES = 7  # carte blanche shown this hand (R6.4)
HS_KIND = 8            # + kind: points of that kind this hand
HS_SIZE = HS_KIND + N_KINDS
# hand_info[g, h, :]
HI_DEALER = 0
HI_TRUMP = 1
HI_TURNUP = 2          # card id of the turn-up at the deal
HI_WINNER_TRICK24 = 3
HI_WINNER_LAST = 4
HI_TRUMP_TRICK = 5     # SC_TRUMP_TRICK at the end of the hand (R8: when trumps were fixed)
HI_SIZE = 6
# game_info[g, :]
GI_HANDS = 0
GI_FIRST_DEALER = 1
GI_WINNER = 2
GI_DOUBLE = 3
GI_STAKE = 4
GI_OVERFLOW = 5        # 1: the game needed more hand or event rows than given; rerun wider
GI_N_EVENTS = 6
GI_RUBICON = 7         # 1: the loser was rubiconed (R6.8)
GI_SCORE = 8           # + seat: final score (Rubicon: points of the hand)
GI_ROUNDED = 12        # + seat: Rubicon: points rounded down to 100 (else = score)
GI_BRISQUES = 16       # + seat: brisque points taken over the game
GI_SIZE = 20

# events[g, i] packs one scoring event into an int64 (see pack_event)
EV_SCORED = 0          # scored when declared
EV_SCORED_PENDING = 1  # shown earlier "to score" (R1.10), scored on a later win
EV_LOST = 2            # shown "to score", never scored (points 0)
STATUS_NAMES = ("scored", "scored_pending", "lost")
TRICK_DEAL = 0         # trick number of events at the deal; end-of-hand events get tricks + 1

# --- trace records (replay): trace[i, :] -----------------------------------------------------
TR_SIZE = 8
TR_HAND_START = 1      # hand, dealer, trump, turnup, first leader
TR_DEAL = 2            # hand, seat, card
TR_PLAY = 3            # hand, trick, seat, card, n_legal
TR_TRICK_WON = 4       # hand, trick, winner, card0..card3 (play order; -1 unused)
TR_EVENT = 5           # hand, trick, seat, kind, status, extra, points
TR_DRAW = 6            # hand, trick, seat, card
TR_EXCHANGE = 7        # hand, trick, seat, seven, turnup
TR_SHOW = 8            # hand, trick, seat, card, code (shown for a 'to score' combination)
TR_HAND_END = 9        # hand, score0..score3 (scores after the hand; -1 for absent seats)
TR_GAME_END = 10       # winner (seat, or team in a partnership), score0..score3, double, stake
TR_DECLARED_CARD = 11  # hand, trick, seat, card, kind  (a card scoring in a declaration)
TR_OPEN = 12           # hand, trick, seat, card  (card joins the seat's open cards, R5.1)
TR_HAND_POINTS = 13    # hand, points0..points3 (each seat's points this hand; -1 absent)
