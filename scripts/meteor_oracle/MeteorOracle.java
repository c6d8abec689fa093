// Asks meteor-1.5.jar itself what its matching resources give, so the Python port can be pinned
// against the jar (scripts/meteor_oracle/make_fixtures.py compiles and runs this).
//
//   java -cp meteor-1.5.jar:BUILD MeteorOracle stem LANG           words on stdin -> stems
//   java -cp ... MeteorOracle synonyms                              words -> sorted synset ids
//   java -cp ... MeteorOracle normalize LANG KEEP_PUNCT LOWER       lines -> the scorer's lines
//   java -cp ... MeteorOracle hash                                  words -> String.hashCode()
//   java -cp ... MeteorOracle lower                                 lines -> String.toLowerCase()
//   java -cp ... MeteorOracle matches LANG "MODULES" [PARAPHRASE_GZ]
//        hypothesis and reference lines alternating on stdin -> every candidate match of the
//        Stage, one "start length matchStart matchLength prob module" line each, in the jar's
//        order, and a line "END" after each pair.
//   java -cp ... MeteorOracle pow                                   "X Y" lines, each the bits of
//        a double (Double.doubleToRawLongBits, in decimal) -> the bits of Math.pow(X, Y), as the
//        jar's MeteorScorer computes its fragmentation penalty (HotSpot's own pow, not C's)
//
// Input and output are UTF-8 whatever the platform's default.

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.StringTokenizer;
import java.util.TreeSet;

import edu.cmu.meteor.aligner.Alignment;
import edu.cmu.meteor.aligner.ExactMatcher;
import edu.cmu.meteor.aligner.Match;
import edu.cmu.meteor.aligner.ParaphraseMatcher;
import edu.cmu.meteor.aligner.ParaphraseTransducer;
import edu.cmu.meteor.aligner.Stage;
import edu.cmu.meteor.aligner.StemMatcher;
import edu.cmu.meteor.aligner.Stemmer;
import edu.cmu.meteor.aligner.SynonymDictionary;
import edu.cmu.meteor.aligner.SynonymMatcher;
import edu.cmu.meteor.util.Constants;
import edu.cmu.meteor.util.Normalizer;

public class MeteorOracle {

	private static SynonymDictionary synonyms() throws Exception {
		URL dir = Constants.DEFAULT_SYN_DIR_URL;
		return new SynonymDictionary(new URL(dir + "/english.exceptions"),
				new URL(dir + "/english.synsets"), new URL(dir + "/english.relations"));
	}

	public static void main(String[] args) throws Exception {
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
				StandardCharsets.UTF_8));
		PrintStream out = new PrintStream(System.out, false, "UTF-8");
		String command = args[0];
		String line;
		if (command.equals("stem")) {
			Stemmer stemmer = Constants.newStemmer(Constants.normLanguageName(args[1]));
			while ((line = in.readLine()) != null)
				out.println(stemmer.stem(line));
		} else if (command.equals("synonyms")) {
			SynonymDictionary dictionary = synonyms();
			while ((line = in.readLine()) != null) {
				TreeSet<Integer> sets = new TreeSet<Integer>(dictionary.getSynSets(line));
				sets.addAll(dictionary.getStemSynSets(line));
				StringBuilder sb = new StringBuilder();
				for (int set : sets)
					sb.append(sb.length() == 0 ? "" : " ").append(set);
				out.println(sb);
			}
		} else if (command.equals("normalize")) {
			int langID = Constants.getLanguageID(Constants.normLanguageName(args[1]));
			boolean keepPunctuation = Boolean.parseBoolean(args[2]);
			boolean lower = Boolean.parseBoolean(args[3]);
			while ((line = in.readLine()) != null) {
				String normalized = Normalizer.normalizeLine(line, langID, keepPunctuation);
				out.println(lower ? normalized.toLowerCase() : normalized);
			}
		} else if (command.equals("hash")) {
			while ((line = in.readLine()) != null)
				out.println(line.hashCode());
		} else if (command.equals("lower")) {
			while ((line = in.readLine()) != null)
				out.println(line.toLowerCase());
		} else if (command.equals("pow")) {
			while ((line = in.readLine()) != null) {
				StringTokenizer numbers = new StringTokenizer(line);
				double x = Double.longBitsToDouble(Long.parseLong(numbers.nextToken()));
				double y = Double.longBitsToDouble(Long.parseLong(numbers.nextToken()));
				out.println(Double.doubleToRawLongBits(Math.pow(x, y)));
			}
		} else if (command.equals("matches")) {
			matches(in, out, Constants.normLanguageName(args[1]), args[2],
					args.length > 3 ? args[3] : null);
		} else {
			throw new RuntimeException("unknown command " + command);
		}
		out.flush();
	}

	private static void matches(BufferedReader in, PrintStream out, String language,
			String moduleNames, String paraphraseFile) throws Exception {
		ArrayList<Integer> modules = new ArrayList<Integer>();
		StringTokenizer names = new StringTokenizer(moduleNames);
		while (names.hasMoreTokens())
			modules.add(Constants.getModuleID(names.nextToken()));
		Stemmer stemmer = modules.contains(Constants.MODULE_STEM) ? Constants
				.newStemmer(language) : null;
		SynonymDictionary dictionary = modules.contains(Constants.MODULE_SYNONYM) ? synonyms()
				: null;
		ParaphraseTransducer paraphrases = modules.contains(Constants.MODULE_PARAPHRASE) ? new ParaphraseTransducer(
				new File(paraphraseFile).toURI().toURL()) : null;
		// The Stage's constructor is package-private: the aligner builds it
		Constructor<Stage> newStage = Stage.class.getDeclaredConstructor(ArrayList.class,
				ArrayList.class);
		newStage.setAccessible(true);
		String hypothesis;
		while ((hypothesis = in.readLine()) != null) {
			String reference = in.readLine();
			Alignment a = new Alignment(hypothesis, reference);
			Stage s = newStage.newInstance(a.words1, a.words2);
			for (int number = 0; number < modules.size(); number++) {
				int module = modules.get(number);
				if (module == Constants.MODULE_EXACT)
					ExactMatcher.match(number, a, s);
				else if (module == Constants.MODULE_STEM)
					StemMatcher.match(number, a, s, stemmer);
				else if (module == Constants.MODULE_SYNONYM)
					SynonymMatcher.match(number, a, s, dictionary);
				else
					ParaphraseMatcher.match(number, a, s, paraphrases);
			}
			for (ArrayList<Match> list : s.matches)
				for (Match m : list)
					out.println(m.start + " " + m.length + " " + m.matchStart + " "
							+ m.matchLength + " " + m.prob + " " + m.module);
			out.println("END");
		}
	}
}
