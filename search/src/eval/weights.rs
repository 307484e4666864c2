//! Evaluation weights (middlegame, endgame; centipawns), one block per section of
//! `layout.rs`, before tuning: PeSTO's material and piece-square tables (Ronald Friederich,
//! chessprogramming wiki "PeSTO's Evaluation Function") and the hand-set terms of the first
//! version; the new terms at zero.
//!
//! Every fit `cutlab tune-eval` has made so far played worse than these numbers (matches of the
//! `null-move+lmr` default at 25,000 nodes per move, 8moves_v3 openings, Elo with 95% interval):
//! - 77,546 TCEC positions (55,120 quiet), 1,000 epochs: held-out MSE 0.0893 -> 0.0817, yet
//!   -146 ± 50 Elo (154 games); only the new terms (PSQT and the rest kept): +3 ± 32 (388 games);
//! - 48,928 self-play positions (`suite generate --results --games 5000 --nodes 6000 --per-game
//!   10 --max-ply 300 --seed 2026`, 35,885 quiet), 60 epochs: MSE 0.0963 -> 0.0952, -140 ± 44
//!   (238 games); with `--l2 1e-8`, 400 epochs: MSE 0.0939, -51 ± 39 (270 games).
//!
//! Tens of thousands of positions fit noise into hundreds of weights; the fit needs far more
//! positions (the usual sets hold millions) before it replaces PeSTO's.

use super::{Phased as S, layout::COUNT};

/// The weight of every feature, indexed as in `layout.rs`.
#[rustfmt::skip]
pub static WEIGHTS: [S; COUNT] = [
    // PSQT: piece (pawn..king) x square from the owner's side (a1 = 0), material included
    // pawn
    S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94),
    S(  47,  107), S(  81,  102), S(  62,  102), S(  59,  104), S(  67,  107), S( 106,   94), S( 120,   96), S(  60,   87),
    S(  56,   98), S(  78,  101), S(  78,   88), S(  72,   95), S(  85,   94), S(  85,   89), S( 115,   93), S(  70,   86),
    S(  55,  107), S(  80,  103), S(  77,   91), S(  94,   87), S(  99,   87), S(  88,   86), S(  92,   97), S(  57,   93),
    S(  68,  126), S(  95,  118), S(  88,  107), S( 103,   99), S( 105,   92), S(  94,   98), S(  99,  111), S(  59,  111),
    S(  76,  188), S(  89,  194), S( 108,  179), S( 113,  161), S( 147,  150), S( 138,  147), S( 107,  176), S(  62,  178),
    S( 180,  272), S( 216,  267), S( 143,  252), S( 177,  228), S( 150,  241), S( 208,  226), S( 116,  259), S(  71,  281),
    S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94), S(  82,   94),
    // knight
    S( 232,  252), S( 316,  230), S( 279,  258), S( 304,  266), S( 320,  259), S( 309,  263), S( 318,  231), S( 314,  217),
    S( 308,  239), S( 284,  261), S( 325,  271), S( 334,  276), S( 336,  279), S( 355,  261), S( 323,  258), S( 318,  237),
    S( 314,  258), S( 328,  278), S( 349,  280), S( 347,  296), S( 356,  291), S( 354,  278), S( 362,  261), S( 321,  259),
    S( 324,  263), S( 341,  275), S( 353,  297), S( 350,  306), S( 365,  297), S( 356,  298), S( 358,  285), S( 329,  263),
    S( 328,  264), S( 354,  284), S( 356,  303), S( 390,  303), S( 374,  303), S( 406,  292), S( 355,  289), S( 359,  263),
    S( 290,  257), S( 397,  261), S( 374,  291), S( 402,  290), S( 421,  280), S( 466,  272), S( 410,  262), S( 381,  240),
    S( 264,  256), S( 296,  273), S( 409,  256), S( 373,  279), S( 360,  272), S( 399,  256), S( 344,  257), S( 320,  229),
    S( 170,  223), S( 248,  243), S( 303,  268), S( 288,  253), S( 398,  250), S( 240,  254), S( 322,  218), S( 230,  182),
    // bishop
    S( 332,  274), S( 362,  288), S( 351,  274), S( 344,  292), S( 352,  288), S( 353,  281), S( 326,  292), S( 344,  280),
    S( 369,  283), S( 380,  279), S( 381,  290), S( 365,  296), S( 372,  301), S( 386,  288), S( 398,  282), S( 366,  270),
    S( 365,  285), S( 380,  294), S( 380,  305), S( 380,  307), S( 379,  310), S( 392,  300), S( 383,  290), S( 375,  282),
    S( 359,  291), S( 378,  300), S( 378,  310), S( 391,  316), S( 399,  304), S( 377,  307), S( 375,  294), S( 369,  288),
    S( 361,  294), S( 370,  306), S( 384,  309), S( 415,  306), S( 402,  311), S( 402,  307), S( 372,  300), S( 363,  299),
    S( 349,  299), S( 402,  289), S( 408,  297), S( 405,  296), S( 400,  295), S( 415,  303), S( 402,  297), S( 363,  301),
    S( 339,  289), S( 381,  293), S( 347,  304), S( 352,  285), S( 395,  294), S( 424,  284), S( 383,  293), S( 318,  283),
    S( 336,  283), S( 369,  276), S( 283,  286), S( 328,  289), S( 340,  290), S( 323,  288), S( 372,  280), S( 357,  273),
    // rook
    S( 458,  503), S( 464,  514), S( 478,  515), S( 494,  511), S( 493,  507), S( 484,  499), S( 440,  516), S( 451,  492),
    S( 433,  506), S( 461,  506), S( 457,  512), S( 468,  514), S( 476,  503), S( 488,  503), S( 471,  501), S( 406,  509),
    S( 432,  508), S( 452,  512), S( 461,  507), S( 460,  511), S( 480,  505), S( 477,  500), S( 472,  504), S( 444,  496),
    S( 441,  515), S( 451,  517), S( 465,  520), S( 476,  516), S( 486,  507), S( 470,  506), S( 483,  504), S( 454,  501),
    S( 453,  516), S( 466,  515), S( 484,  525), S( 503,  513), S( 501,  514), S( 512,  513), S( 469,  511), S( 457,  514),
    S( 472,  519), S( 496,  519), S( 503,  519), S( 513,  517), S( 494,  516), S( 522,  509), S( 538,  507), S( 493,  509),
    S( 504,  523), S( 509,  525), S( 535,  525), S( 539,  523), S( 557,  509), S( 544,  515), S( 503,  520), S( 521,  515),
    S( 509,  525), S( 519,  522), S( 509,  530), S( 528,  527), S( 540,  524), S( 486,  524), S( 508,  520), S( 520,  517),
    // queen
    S(1024,  903), S(1007,  908), S(1016,  914), S(1035,  893), S(1010,  931), S(1000,  904), S( 994,  916), S( 975,  895),
    S( 990,  914), S(1017,  913), S(1036,  906), S(1027,  920), S(1033,  920), S(1040,  913), S(1022,  900), S(1026,  904),
    S(1011,  920), S(1027,  909), S(1014,  951), S(1023,  942), S(1020,  945), S(1027,  953), S(1039,  946), S(1030,  941),
    S(1016,  918), S( 999,  964), S(1016,  955), S(1015,  983), S(1023,  967), S(1021,  970), S(1028,  975), S(1022,  959),
    S( 998,  939), S( 998,  958), S(1009,  960), S(1009,  981), S(1024,  993), S(1042,  976), S(1023,  993), S(1026,  972),
    S(1012,  916), S(1008,  942), S(1032,  945), S(1033,  985), S(1054,  983), S(1081,  971), S(1072,  955), S(1082,  945),
    S(1001,  919), S( 986,  956), S(1020,  968), S(1026,  977), S(1009,  994), S(1082,  961), S(1053,  966), S(1079,  936),
    S( 997,  927), S(1025,  958), S(1054,  958), S(1037,  963), S(1084,  963), S(1069,  955), S(1068,  946), S(1070,  956),
    // king
    S( -15,  -53), S(  36,  -34), S(  12,  -21), S( -54,  -11), S(   8,  -28), S( -28,  -14), S(  24,  -24), S(  14,  -43),
    S(   1,  -27), S(   7,  -11), S(  -8,    4), S( -64,   13), S( -43,   14), S( -16,    4), S(   9,   -5), S(   8,  -17),
    S( -14,  -19), S( -14,   -3), S( -22,   11), S( -46,   21), S( -44,   23), S( -30,   16), S( -15,    7), S( -27,   -9),
    S( -49,  -18), S(  -1,   -4), S( -27,   21), S( -39,   24), S( -46,   27), S( -44,   23), S( -33,    9), S( -51,  -11),
    S( -17,   -8), S( -20,   22), S( -12,   24), S( -27,   27), S( -30,   26), S( -25,   33), S( -14,   26), S( -36,    3),
    S(  -9,   10), S(  24,   17), S(   2,   23), S( -16,   15), S( -20,   20), S(   6,   45), S(  22,   44), S( -22,   13),
    S(  29,  -12), S(  -1,   17), S( -20,   14), S(  -7,   17), S(  -8,   17), S(  -4,   38), S( -38,   23), S( -29,   11),
    S( -65,  -74), S(  23,  -35), S(  16,  -18), S( -15,  -18), S( -56,  -11), S( -34,   15), S(   2,    4), S(  13,  -17),
    // MOBILITY_KNIGHT: squares reached outside own pieces and enemy pawn attacks
    S( -16,  -16), S( -12,  -12), S(  -8,   -8), S(  -4,   -4), S(   0,    0), S(   4,    4), S(   8,    8), S(  12,   12),
    S(  16,   16),
    // MOBILITY_BISHOP: squares reached outside own pieces and enemy pawn attacks
    S( -30,  -30), S( -25,  -25), S( -20,  -20), S( -15,  -15), S( -10,  -10), S(  -5,   -5), S(   0,    0), S(   5,    5),
    S(  10,   10), S(  15,   15), S(  20,   20), S(  25,   25), S(  30,   30), S(  35,   35),
    // MOBILITY_ROOK: squares reached outside own pieces and enemy pawn attacks
    S( -14,  -28), S( -12,  -24), S( -10,  -20), S(  -8,  -16), S(  -6,  -12), S(  -4,   -8), S(  -2,   -4), S(   0,    0),
    S(   2,    4), S(   4,    8), S(   6,   12), S(   8,   16), S(  10,   20), S(  12,   24), S(  14,   28),
    // MOBILITY_QUEEN: squares reached outside own pieces and enemy pawn attacks
    S( -13,  -26), S( -12,  -24), S( -11,  -22), S( -10,  -20), S(  -9,  -18), S(  -8,  -16), S(  -7,  -14), S(  -6,  -12),
    S(  -5,  -10), S(  -4,   -8), S(  -3,   -6), S(  -2,   -4), S(  -1,   -2), S(   0,    0), S(   1,    2), S(   2,    4),
    S(   3,    6), S(   4,    8), S(   5,   10), S(   6,   12), S(   7,   14), S(   8,   16), S(   9,   18), S(  10,   20),
    S(  11,   22), S(  12,   24), S(  13,   26), S(  14,   28),
    // PASSED_PAWN: rank from the owner's side
    S(   0,    0), S(   5,   10), S(   8,   16), S(  14,   30), S(  28,   55), S(  50,   95), S(  80,  145), S(   0,    0),
    // PASSED_PAWN_BLOCKED: rank of a passed pawn whose stop square holds an enemy piece
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    // CONNECTED_PAWN: rank of a pawn defended by a pawn or beside one
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    // ISOLATED_PAWN: one per pawn with no own pawn on an adjacent file
    S( -12,  -12),
    // DOUBLED_PAWN: one per extra pawn on a file
    S( -10,  -20),
    // BISHOP_PAIR: two or more bishops
    S(  30,   50),
    // ROOK_OPEN_FILE: rook on a file without pawns
    S(   0,    0),
    // ROOK_SEMI_OPEN_FILE: rook on a file with enemy pawns only
    S(   0,    0),
    // PAWN_SHIELD: own pawns (0..3) before a king on its first two ranks
    S(   0,    0), S(  12,    0), S(  24,    0), S(  36,    0),
    // KING_ATTACK: attack units on the enemy king zone (only with two or more attackers)
    S(   0,    0), S(   0,    0), S(   2,    0), S(   4,    0), S(   8,    0), S(  12,    0), S(  18,    0), S(  24,    0),
    S(  32,    0), S(  40,    0), S(  50,    0), S(  60,    0), S(  72,    0), S(  84,    0), S(  98,    0), S( 112,    0),
    S( 128,    0), S( 144,    0), S( 162,    0), S( 180,    0), S( 200,    0), S( 220,    0), S( 242,    0), S( 264,    0),
    S( 288,    0), S( 312,    0), S( 338,    0), S( 364,    0), S( 392,    0), S( 420,    0), S( 450,    0), S( 450,    0),
    // THREAT_BY_PAWN: enemy knight, bishop, rook, queen attacked by a pawn
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    // THREAT_BY_MINOR: enemy knight, bishop, rook, queen attacked by a knight or bishop
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    // THREAT_BY_ROOK: enemy knight, bishop, rook, queen attacked by a rook
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    // TEMPO: side to move
    S(   0,    0),
];
