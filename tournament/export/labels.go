package export

import (
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// text is one of the workbook's words in Japanese and in English. The
// workbook keeps its own words, like referee's NameJA and NameEN: it is read
// far from the console, and its headers are part of its format.
type text struct{ ja, en string }

func (t text) in(lang string) string {
	if lang == "en" {
		return t.en
	}
	return t.ja
}

// The sheet names.
var (
	sheetStandings = text{"順位表", "Standings"}
	sheetResults   = text{"対戦結果", "Results"}
	sheetPlayers   = text{"選手", "Players"}
	sheetPenalties = text{"ペナルティ", "Penalties"}
	sheetSettings  = text{"設定", "Settings"}
)

// The column headers.
var (
	hRank       = text{"順位", "Rank"}
	hName       = text{"名前", "Name"}
	hKana       = text{"ふりがな", "Kana"}
	hFirsts     = text{"1位の回数", "1st places"}
	hTotalVP    = text{"勝利点合計", "Total VP"}
	hShare      = text{"勝利点シェア", "VP share"}
	hPoints     = text{"順位点", "Placement points"}
	hPlayed     = text{"対戦数", "Games played"}
	hPenalties  = text{"ペナルティ", "Penalties"}
	hDropped    = text{"棄権（回戦から）", "Dropped from round"}
	hRound      = text{"回戦", "Round"}
	hTable      = text{"卓", "Table"}
	hSeat       = text{"手番", "Seat"}
	hColor      = text{"色", "Colour"}
	hPlayerNo   = text{"選手番号", "Player no."}
	hPlayer     = text{"選手", "Player"}
	hVP         = text{"勝利点", "VP"}
	hReportedVP = text{"成績表の勝利点", "VP on the sheet"}
	hDeducted   = text{"ペナルティによる減点", "Deducted by penalties"}
	hDeductedBy = text{"減点の理由", "Deducted for"}
	// The VP breakdown of a score sheet (§11).
	hSettlements = text{"家", "Settlements"}
	hCities      = text{"街", "Cities"}
	hLongestRoad = text{"ロンゲストロード", "Longest road"}
	hLargestArmy = text{"ラージェストアーマー", "Largest army"}
	hPointCards  = text{"1ポイントカード", "One-point cards"}
	hPlace       = text{"順位", "Place"}
	hEndedBy     = text{"終了", "Ended by"}
	hDeclared    = text{"勝利宣言", "Declared winner"}
	hCorrected   = text{"訂正回数", "Corrections"}
	hCheckedIn   = text{"受付", "Checked in"}
	hLateEntry   = text{"途中参加（回戦から）", "Late entry from round"}
	hFixedTable  = text{"固定卓", "Fixed table"}
	hKeepApart   = text{"同卓不可", "Keep apart from"}
	hAt          = text{"日時", "Time"}
	hOffence     = text{"違反", "Offence"}
	hSection     = text{"条項", "Rulebook section"}
	hLevel       = text{"罰則", "Level"}
	hJudge       = text{"ジャッジ", "Judge"}
	hNote        = text{"メモ", "Note"}
	hRevokedBy   = text{"取消（ジャッジ）", "Revoked by"}
	hRevokedWhy  = text{"取消の理由", "Reason for revoking"}
	hGroup       = text{"区分", "Group"}
	hSetting     = text{"項目", "Setting"}
	hKey         = text{"キー", "Key"}
	hValue       = text{"値", "Value"}
)

// The values written as words.
var (
	endedBy = map[string]text{
		tournament.EndedByDeclaration: {"勝利宣言", "Declaration"},
		tournament.EndedByTime:        {"時間切れ", "Time"},
	}
	colors = map[referee.Color]text{
		referee.Red:    {"赤", "Red"},
		referee.Blue:   {"青", "Blue"},
		referee.Yellow: {"黄", "Yellow"},
		referee.Green:  {"緑", "Green"},
		"white":        {"白", "White"},
		"orange":       {"橙", "Orange"},
	}
	// sharedRankFormat shows a rank shared with another player as such,
	// while the cell stays a number that sorts and filters.
	sharedRankFormat = text{`0"（同順位）"`, `"="0`}
)

// The Settings sheet's groups and labels.
var (
	gTournament = text{"大会", "Tournament"}
	gRuleset    = text{"ルールセット", "Ruleset"}
	gOffences   = text{"ペナルティの種類", "Penalty catalogue"}
	gSeeds      = text{"シード（再現用）", "Seeds (for replay)"}

	sName        = text{"大会名", "Name"}
	sDate        = text{"開催日", "Date"}
	sVenue       = text{"会場", "Venue"}
	sRounds      = text{"予定回戦数", "Rounds planned"}
	sGameMinutes = text{"ゲーム時間（分）", "Game minutes"}

	sRulesetName      = text{"ルールセット名", "Ruleset name"}
	sRulesetVersion   = text{"バージョン", "Version"}
	sRulesetMinutes   = text{"ゲーム時間（分）§12", "Game minutes §12"}
	sVPCap            = text{"勝利点の記録上限 §11", "VP recorded up to §11"}
	sWinVP            = text{"勝利宣言に必要な勝利点 §11", "VP to declare victory §11"}
	sDango            = text{"団子ルール §3 ウ", "Dango rule §3 ウ"}
	sLongestRoadTie   = text{"ロンゲストロードの同点 §10", "Longest road tie §10"}
	sBankShortage     = text{"場の資源不足 §6", "Bank shortage §6"}
	sRobberOnDesert   = text{"盗賊を砂漠に置く §3 エ", "Robber starts on the desert §3 エ"}
	sRequireBreakdown = text{"成績表の内訳を必須とする §11", "Score sheets need the VP breakdown §11"}
	sColors           = text{"色（手番順）§3 カ", "Colours by play order §3 カ"}
	sTerrain          = text{"地形（上の列から）§3 ア", "Terrain, top row first §3 ア"}
	sHarbors          = text{"港（北西から時計回り）§3 ア", "Harbours, clockwise from north-west §3 ア"}
	sOrder            = text{"順位の決め方", "Standings order"}
	sPlacePoints      = text{"順位点（1位から）", "Placement points, 1st first"}
	sByeFirsts        = text{"不戦: 1位の回数", "Bye: 1st places"}
	sByeVP            = text{"不戦: 勝利点", "Bye: VP"}
	sByeShare         = text{"不戦: シェア", "Bye: VP share"}
	sByePoints        = text{"不戦: 順位点", "Bye: placement points"}
	sByePlayed        = text{"不戦を対戦数に含める", "Bye counts as played"}
	sLadder           = text{"罰則の段階", "Penalty ladder"}
	sEscalateFrom     = text{"繰り返しで重くなる段階", "Repeats escalate from"}
	sDeductVP         = text{"勝利点減点の点数", "VP deducted"}
	sBoardMethod      = text{"盤面の作り方", "Board set-up"}
	sPlacementPace    = text{"初期配置 開拓地1軒の秒数（0は区切らない）", "Placement seconds per settlement (0: not paced)"}
	sFinalTurn        = text{"決勝卓の1手番の秒数（0は制限なし）", "Final-table seconds per turn (0: no limit)"}
	sEndNotice        = text{"決勝卓の終了告知（分前）", "Final-table end notice (minutes before)"}
	sRoundFormats     = text{"各回戦の組み合わせ（最後を繰り返す）", "Round formats (the last repeats)"}
	sFinal            = text{"決勝の方式", "Final format"}
	sCut              = text{"決勝へのカット（段階ごとの人数）", "Cut to the final (players per stage)"}
	sFinalTies        = text{"決勝での同点", "Ties in a final"}
	sCorners          = text{"チップの開始角（ダイス1〜6）", "Chips' starting corners (die 1 to 6)"}
	sChips            = text{"数字チップ A〜R", "Number chips A to R"}

	sPairingSeed = text{"第%d回戦 組み合わせ（%s）", "Round %d pairing (%s)"}
	sSeatingSeed = text{"第%d回戦 %d卓 手番決め", "Round %d table %d seating"}
	sBoardSeed   = text{"第%d回戦 %d卓 盤面（チップ配り）", "Round %d table %d board (chip deal)"}
	sBoardRoll   = text{"第%d回戦 %d卓 カプセルダイス", "Round %d table %d capsule roll"}
	sBoardCorner = text{"第%d回戦 %d卓 チップの開始角（ダイス）", "Round %d table %d chips' starting corner (die)"}
	sTerrainSeed = text{"第%d回戦 %d卓 盤面（地形の配置）", "Round %d table %d board (terrain shuffle)"}
	sHandDealt   = text{"第%d回戦 %d卓 チップ", "Round %d table %d chips"}
	vHandDealt   = text{"ジャッジが手で配った配置を記録", "dealt by hand, as the judge entered it"}
	vRoll        = text{"白 %d・青 %d", "white %d, blue %d"}
	vEscalates   = text{"繰り返しで重くなる", "escalates"}
	vRemedy      = text{"処置: %s", "remedy: %s"}
)

func levelName(l referee.Level, lang string) string {
	if lang == "en" {
		return l.NameEN()
	}
	return l.NameJA()
}
