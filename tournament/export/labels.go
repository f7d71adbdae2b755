package export

import (
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// text is one of the workbook's words in Japanese and in English. The
// workbook keeps its own words, like referee's NameJA and NameEN: it is read
// far from the console, and its headers are part of its format. The words
// follow docs/glossary.md, as every page does.
type text struct{ ja, en string }

func (t text) in(lang string) string {
	if lang == "en" {
		return t.en
	}
	return t.ja
}

// The sheet names.
var (
	sheetFinal     = text{"最終順位", "Final results"}
	sheetStandings = text{"順位表", "Standings"}
	sheetResults   = text{"対戦結果", "Results"}
	sheetPlayers   = text{"参加者", "Players"}
	sheetPenalties = text{"ペナルティ", "Penalties"}
	sheetSettings  = text{"設定", "Settings"}
)

// The column headers.
var (
	hRank       = text{"順位", "Rank"}
	hTied       = text{"同順位", "Tied"}
	hDecidedBy  = text{"決め方", "Decided by"}
	hStage      = text{"決勝の段", "Final stage"}
	hName       = text{"名前", "Name"}
	hKana       = text{"よみがな", "Kana"}
	hFirsts     = text{"1位の回数", "1st places"}
	hTotalVP    = text{"勝利点合計", "Total VP"}
	hShare      = text{"勝利点シェア", "VP share"}
	hPoints     = text{"順位点", "Placement points"}
	hPlayed     = text{"対戦数", "Games played"}
	hPenalties  = text{"ペナルティ数", "Penalties"}
	hDropped    = text{"棄権", "Dropped"}
	hRound      = text{"回戦", "Round"}
	hTable      = text{"卓", "Table"}
	hSeat       = text{"手番", "Seat"}
	hColor      = text{"色", "Colour"}
	hPlayerNo   = text{"参加者\n番号", "Player no."}
	hPlayer     = text{"参加者", "Player"}
	hVP         = text{"勝利点", "VP"}
	hReportedVP = text{"成績表の\n勝利点", "VP on the sheet"}
	hDeducted   = text{"ペナルティ\nによる減点", "Deducted by penalties"}
	hDeductedBy = text{"減点の理由", "Deducted for"}
	// The VP breakdown of a score sheet (§11).
	hSettlements = text{"家", "Settlements"}
	hCities      = text{"街", "Cities"}
	hLongestRoad = text{"ロンゲスト\nロード", "Longest road"}
	hLargestArmy = text{"ラージェスト\nアーマー", "Largest army"}
	hPointCards  = text{"1ポイント\nカード", "One-point cards"}
	hPlace       = text{"順位", "Place"}
	hEndedBy     = text{"終了のしかた", "Ended by"}
	hDeclared    = text{"勝利宣言した\nプレイヤー", "Declared winner"}
	hCorrected   = text{"訂正回数", "Corrections"}
	hCheckedIn   = text{"受付", "Checked in"}
	hLateEntry   = text{"途中参加", "Late entry"}
	hFixedTable  = text{"固定卓", "Fixed table"}
	hKeepApart   = text{"同卓不可", "Keep apart from"}
	hAt          = text{"日時", "Time"}
	hOffence     = text{"違反", "Offence"}
	hSection     = text{"条項", "Rulebook section"}
	hLevel       = text{"レベル", "Level"}
	hJudge       = text{"ジャッジ", "Judge"}
	hNote        = text{"メモ", "Note"}
	hRevokedBy   = text{"取り消した\nジャッジ", "Revoked by"}
	hRevokedWhy  = text{"取消の理由", "Reason for revoking"}
	hGroup       = text{"区分", "Group"}
	hSetting     = text{"項目", "Setting"}
	hValue       = text{"値", "Value"}
	hKey         = text{"キー", "Key"}
	hFileValue   = text{"ファイルでの値", "Value in the file"}
)

// The title row and the line under it that explains the sheet's columns.
var (
	// titleSep joins the title row's parts: the tournament, its date and
	// venue, and the sheet.
	titleSep = text{"　", " · "}
	// dateFormat writes the tournament's date in the title row.
	dateFormat = text{"2006年1月2日", "2 January 2006"}

	tStandingsAfter = text{"順位表（第%d回戦終了時点）", "Standings after round %d"}
	tStandingsLive  = text{"順位表（途中経過: 第%d回戦の入力済みの成績を含む）", "Standings so far (with the results entered in round %d)"}
	tStandingsFinal = text{"最終順位", "Final standings"}

	nStandingsOrder = text{"順位の決め方: %s（すべて同じなら同順位）。", "Ranked by %s (equal on all: a shared rank). "}
	nShare          = text{"勝利点シェア = 各ゲームの「自分の勝利点 ÷ 卓の勝利点合計」の合計（3人卓は卓の平均点の4人目を加えて計算）。",
		"VP share = the sum over games of own VP ÷ the table's total VP (a 3-player table counts a 4th player with the table's average)."}
	nResults   = text{"勝利点 = 成績表の勝利点 − ペナルティによる減点。順位は卓内の順位です（勝利宣言したプレイヤーが1位、同じ勝利点は同順位で次の順位は飛ばす）。", "VP = VP on the sheet − deducted by penalties. Place is the place at the table (the declared winner 1st; equal VP share a place and the next is skipped)."}
	nPlayers   = text{"参加者番号は対戦結果・ペナルティのシートと共通です。途中参加・棄権はその回戦から、同卓不可は双方向です。", "Player numbers are the same on the Results and Penalties sheets. Late entry and dropping count from the round shown; keep-apart works both ways."}
	nPenalties = text{"取り消したペナルティも記録として残します。順位表のペナルティ数と勝利点には数えません。", "Revoked penalties stay on record; the standings and the VP do not count them."}
	nSettings  = text{"この大会が使ったルールセットの写しと、組み合わせ・手番・盤面を再現するシード。キーとファイルでの値は、ルールセットのファイル（JSON）での書き方です。", "The copy of the ruleset this tournament ran under, and the seeds that replay each pairing, seating and board. Key and value in the file are as the ruleset file (JSON) writes them."}
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
	checkedIn = map[bool]text{true: {"受付済み", "yes"}, false: {"未受付", "no"}}
	yesNo     = map[bool]text{true: {"はい", "yes"}, false: {"いいえ", "no"}}
	// held says whether a player held an award (§10) on their sheet: a
	// word of the workbook's language, never Excel's TRUE or FALSE.
	held = map[bool]text{true: {"あり", "yes"}, false: {"なし", "no"}}
	// actors are who made a change that is not a judge, by the name the
	// record keeps.
	actors = map[string]text{
		tournament.APIActor:    {"APIトークン", "API token"},
		tournament.PlayerActor: {"参加者（コード）", "a player (code)"},
	}
	// tiedFormat shows how many players share a rank (tiedTeamsFormat
	// teams), and fromRoundFormat
	// the round a late entry or a drop counts from, while each cell stays
	// a number that sorts and filters.
	tiedFormat      = text{`0"人"`, `0" players"`}
	tiedTeamsFormat = text{`0"チーム"`, `0" teams"`}
	fromRoundFormat = text{`"第"0"回戦から"`, `"from round "0`}
	// listSep joins the items of a list in a cell; stepSep the steps of an
	// order; partSep the facts about one offence.
	listSep = text{"、", ", "}
	stepSep = text{" → ", " → "}
	partSep = text{"・", " · "}
)

// The Settings sheet's groups and labels.
var (
	gTournament = text{"大会", "Tournament"}
	gRuleset    = text{"ルールセット", "Ruleset"}
	gOffences   = text{"違反の一覧", "Penalty catalogue"}
	gSeeds      = text{"シード（再現用）", "Seeds (for replay)"}

	sName        = text{"大会名", "Name"}
	sDate        = text{"開催日", "Date"}
	sVenue       = text{"会場", "Venue"}
	sRounds      = text{"予定回戦数", "Rounds planned"}
	sGameMinutes = text{"1ゲームの時間（分）", "Game minutes"}

	sRulesetName      = text{"ルールセット名", "Ruleset name"}
	sRulesetVersion   = text{"版", "Version"}
	sRulesetMinutes   = text{"1ゲームの時間（分） §12", "Game minutes §12"}
	sVPCap            = text{"勝利点の記録上限 §11", "VP recorded up to §11"}
	sWinVP            = text{"勝利宣言に必要な勝利点 §11", "VP to declare victory §11"}
	sDango            = text{"団子ルール §3 ウ", "Dango rule §3 ウ"}
	sLongestRoadTie   = text{"ロンゲストロードの同点 §10", "Longest road tie §10"}
	sBankShortage     = text{"場の資源不足 §6", "Bank shortage §6"}
	sRobberOnDesert   = text{"盗賊を砂漠に置く §3 エ", "Robber starts on the desert §3 エ"}
	sRequireBreakdown = text{"成績表の内訳を必須とする §11", "Score sheets need the VP breakdown §11"}
	sColors           = text{"色（手番順） §3 カ", "Colours by play order §3 カ"}
	sTerrain          = text{"地形（上の列から） §3 ア", "Terrain, top row first §3 ア"}
	sHarbors          = text{"港（北西から時計回り） §3 ア", "Harbours, clockwise from north-west §3 ア"}
	sOrder            = text{"順位の決め方", "Standings order"}
	sPlacePoints      = text{"順位点（1位から）", "Placement points, 1st first"}
	sByeFirsts        = text{"不戦: 1位の回数", "Bye: 1st places"}
	sByeVP            = text{"不戦: 勝利点", "Bye: VP"}
	sByeShare         = text{"不戦: 勝利点シェア", "Bye: VP share"}
	sByePoints        = text{"不戦: 順位点", "Bye: placement points"}
	sByePlayed        = text{"不戦を対戦数に含める", "Bye counts as played"}
	sLadder           = text{"ペナルティのレベル（軽い順）", "Penalty levels, mildest first"}
	sEscalateFrom     = text{"格上げを始めるレベル", "Repeats escalate from"}
	sDeductVP         = text{"勝利点減点の点数", "VP deducted"}
	sBoardMethod      = text{"盤面の作り方", "Board set-up"}
	sPlacementPace    = text{"初期配置: 家1軒の秒数（0は区切らない）", "Placement seconds per settlement (0: not paced)"}
	sFinalTurn        = text{"決勝卓の1手番の秒数（0は制限なし）", "Final-table seconds per turn (0: no limit)"}
	sEndNotice        = text{"決勝卓の終了告知（何分前）", "Final-table end notice (minutes before)"}
	sRoundFormats     = text{"各回戦の組み合わせ（最後を繰り返す）", "Round formats (the last repeats)"}
	sFinal            = text{"決勝の方式", "Final format"}
	sCut              = text{"決勝へのカット（段階ごとの人数）", "Cut to the final (players per stage)"}
	sFinalTies        = text{"決勝での同点", "Ties in a final"}
	sSchedulePriority = text{"事前の一括抽選で優先すること", "Rounds drawn in advance put first"}
	sCorners          = text{"チップの開始角（ダイス1〜6）", "Chips' starting corners (die 1 to 6)"}
	sChips            = text{"数字チップ A〜R", "Number chips A to R"}

	sPairingSeed  = text{"第%d回戦 組み合わせ（%s）", "Round %d pairing (%s)"}
	sCutAdvancing = text{"第%d回戦 決勝の進出者（参加者番号）", "Round %d final: advancing (player no.)"}
	sCutDraw      = text{"第%d回戦 決勝の境目の抽選順（参加者番号）", "Round %d final: draw at the cut (player no.)"}
	sCutSeed      = text{"第%d回戦 決勝の抽選", "Round %d final: cut draw"}
	sSeatingSeed  = text{"第%d回戦 %d卓 手番決め", "Round %d table %d seating"}
	sBoardSeed    = text{"第%d回戦 %d卓 盤面（チップ配り）", "Round %d table %d board (chip deal)"}
	sBoardRoll    = text{"第%d回戦 %d卓 カプセルダイス", "Round %d table %d capsule roll"}
	sBoardCorner  = text{"第%d回戦 %d卓 チップの開始角（ダイス）", "Round %d table %d chips' starting corner (die)"}
	sTerrainSeed  = text{"第%d回戦 %d卓 盤面（地形の配置）", "Round %d table %d board (terrain shuffle)"}
	sHandDealt    = text{"第%d回戦 %d卓 数字チップ", "Round %d table %d chips"}
	vHandDealt    = text{"ジャッジが手で配った配置を記録", "dealt by hand, as the judge entered it"}
	vRoll         = text{"白 %d・青 %d", "white %d, blue %d"}
	vEscalates    = text{"繰り返すと格上げ", "escalates"}
	vRemedy       = text{"処置: %s", "remedy: %s"}
)

// The ruleset's settings said in words, by their value in the ruleset file.
var (
	dangoWords = map[referee.DangoPolicy]text{
		referee.DangoConnected:      {"辺でつながった赤い数字（6・8）3つ以上で配り直し", "redeal when 3 or more red numbers (6, 8) connect by their edges"},
		referee.DangoTriangle:       {"1つの角に集まる赤い数字3つで配り直し", "redeal when 3 red numbers meet at one corner"},
		referee.DangoNoAdjacentReds: {"隣り合う赤い数字で配り直し", "redeal when 2 red numbers are next to each other"},
		referee.DangoOff:            {"配り直しなし", "no redeal"},
	}
	longestRoadWords = map[referee.LongestRoadTiePolicy]text{
		referee.LongestRoadVacate:      {"同点なら場に戻す", "a tie returns the card to the bank"},
		referee.LongestRoadHolderKeeps: {"同点なら持っている人のまま", "a tied holder keeps the card"},
	}
	bankWords = map[referee.BankShortagePolicy]text{
		referee.BankShortageAllOrNothing:    {"全員に払えない資源は誰ももらわない", "a resource the bank cannot pay to all goes to nobody"},
		referee.BankShortageSingleTakesRest: {"全員に払えない資源は誰ももらわない（1人だけなら残りをもらう）", "a resource the bank cannot pay to all goes to nobody (a single player takes what is left)"},
	}
	terrainWords = map[referee.Terrain]text{
		referee.Hills:     {"丘陵", "hills"},
		referee.Forest:    {"森林", "forest"},
		referee.Mountains: {"山地", "mountains"},
		referee.Fields:    {"畑", "fields"},
		referee.Pasture:   {"牧草地", "pasture"},
		referee.Desert:    {"砂漠", "desert"},
	}
	harborWords = map[referee.HarborKind]text{
		referee.GenericHarbor: {"3:1", "3:1"},
		referee.BrickHarbor:   {"土 2:1", "brick 2:1"},
		referee.LumberHarbor:  {"木 2:1", "lumber 2:1"},
		referee.OreHarbor:     {"鉄 2:1", "ore 2:1"},
		referee.GrainHarbor:   {"麦 2:1", "grain 2:1"},
		referee.WoolHarbor:    {"羊 2:1", "wool 2:1"},
	}
	standingsKeyWords = map[referee.StandingsKey]text{
		referee.KeyFirsts: hFirsts,
		referee.KeyVP:     hTotalVP,
		referee.KeyShare:  hShare,
		referee.KeyPoints: hPoints,
	}
	boardWords = map[referee.BoardMethod]text{
		referee.CapsuleBoard: {"固定配置をカプセルダイスで回し、数字チップをシャッフルして配る", "the fixed layout turned by the capsule dice, the number chips shuffled and dealt"},
		referee.SpiralBoard:  {"地形はランダム、数字チップはダイスで決めた角から渦巻きに置く", "random terrain, the number chips laid in a spiral from the corner a die chooses"},
	}
	roundWords = map[string]text{
		string(referee.RandomRound):   {"抽選", "random draw"},
		string(referee.ScheduleRound): {"事前の一括抽選", "drawn in advance"},
		string(referee.SwissRound):    {"スイス式", "Swiss"},
		tournament.ModeFinal:          {"決勝", "final"},
	}
	finalWords = map[referee.FinalFormat]text{
		referee.TopCut:       {"予選の上位で決勝卓", "the top players by the standings play a final"},
		referee.LeadersTable: {"最終回戦の1卓で優勝を決める", "the last round's table 1 decides"},
		referee.NoFinal:      {"決勝なし（順位表で決める）", "no final (the standings decide)"},
	}
	finalTiesWords = map[referee.FinalTies]text{
		referee.FinalTiesShared:    {"同点は同順位", "equal VP share a place"},
		referee.FinalTiesStandings: {"予選の順位が上の人を上位とする", "the qualifying standings break the tie"},
	}
	schedulePriorityWords = map[referee.SchedulePriority]text{
		referee.SpreadFirst:  {"3人卓と不戦を均等に回す", "3-player tables and byes shared out evenly"},
		referee.RepeatsFirst: {"再戦を最も少なくする", "the fewest repeat meetings"},
	}
	cornerWords = map[referee.Corner]text{
		referee.NorthWest: {"北西", "north-west"},
		referee.NorthEast: {"北東", "north-east"},
		referee.East:      {"東", "east"},
		referee.SouthEast: {"南東", "south-east"},
		referee.SouthWest: {"南西", "south-west"},
		referee.West:      {"西", "west"},
	}
	remedyWords = map[string]text{
		"card-void":   {"カードは無効（裏向きにする）", "the card is void (turned face down)"},
		"trade-void":  {"交渉は無効", "the trade is void"},
		"no-card":     {"カードは受け取れない", "no card is taken"},
		"re-roll":     {"振り直し", "roll again"},
		"action-void": {"その行動は無効", "the action is void"},
	}
)

// word says v in lang by words, or as it is when words has no entry for it.
func word[K ~string](words map[K]text, v K, lang string) string {
	if t, ok := words[v]; ok {
		return t.in(lang)
	}
	return string(v)
}

// wordList says each of vs by words and joins them with sep.
func wordList[K ~string](words map[K]text, vs []K, sep text, lang string) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = word(words, v, lang)
	}
	return strings.Join(s, sep.in(lang))
}

func levelName(l referee.Level, lang string) string {
	if lang == "en" {
		return l.NameEN()
	}
	return l.NameJA()
}

// judgeName is who made a change as the workbook names them: a judge's
// name, or the words for the API token and for a player with their code.
func judgeName(judge, lang string) string {
	if a, ok := actors[judge]; ok {
		return a.in(lang)
	}
	return judge
}
