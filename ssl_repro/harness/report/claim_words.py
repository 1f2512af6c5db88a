"""Each tested claim of ``experiments/paper_numbers.json`` in a few plain words, for the claims overview.

The paper's own words (the verbatim quote), the test and the evidence are on the claim's page; these are
the row titles a reader scans. DA is 000's MFA; S=1 and S=max are TSVM with single and multiple switching.
"""

#: {claim id: the claim in a few plain words}.
CLAIM_WORDS = {
    "000-fig4": "DA reaches a lower objective than TSVM, much lower on aut-avn, ccat, pcmac",
    "004-fig1.3-da": "DA reaches a lower objective than TSVM, much lower on aut-avn, ccat",
    "004-fig1.3-switching": "Multiple switching loses no objective against single switching",
    "000-obs2-realsim-J": "On real-sim, TSVM and DA reach about the same objective",
    "000-obs1": "Unlabeled data lowers the error (TSVM and DA below the SVM)",
    "004-fig1.5": "Unlabeled data lowers the test error on all sets",
    "000-obs2-da": "DA's error well below TSVM's on aut-avn and pcmac",
    "003-table3-da": "DA's test error well below TSVM's on aut-avn and pcmac",
    "000-obs2-ccat": "On ccat, DA's much lower objective gives only slightly lower error",
    "000-obs2-matched": "DA's and TSVM's errors nearly equal on gcat and 33-vs-36",
    "000-obs2-realsim": "On real-sim, TSVM's error is below DA's",
    "000-obs3": "Multiple and single switching give nearly the same error",
    "003-obs3": "Multiple and single switching give nearly the same error",
    "000-out-of-sample": "The error findings hold on unseen test data too",
    "000-timing-1": "Single switching is ten times slower than multiple switching",
    "003-timing": "Single switching ten times slower; DA between the two",
    "000-timing-2": "DA faster than single switching, slower than multiple switching",
    "000-timing-3": "TSVM's time depends more on the number of labels than DA's",
    "004-fig1.6": "Single switching six to seven times slower with few labels",
    "004-fig1.6-da": "DA faster than single switching with few labels, slower than multiple",
    "000-table9": "Far faster than SVM-light's TSVM",
    "003-table4": "Far faster than SVM-light's TSVM",
    "000-annealing": "Annealing reaches a lower objective than a fixed temperature",
    "003-fig4": "Annealing gives no higher error than a fixed temperature",
    "004-table1.2": "DA's lower objective holds on full-ccat and full-gcat",
    "004-table1.3": "DA reaches a lower objective on kdd99",
    "004-table1.4": "TSVM's and DA's errors about equal on full-ccat and full-gcat",
    "004-table1.5": "DA has the lowest error on kdd99",
    "004-table1.6": "Twice the data takes about twice the time",
    "004-table1.7": "On kdd99 TSVM took 15 minutes, DA 2 hours 20 minutes",
    "001-table2": "Kernel DA beats ∇TSVM, which beats JTSVM (2MOONS, 2CIRCLES)",
    "001-fig5-top": "DA reaches a much lower objective than JTSVM at every label count (aut-avn)",
    "001-fig5-middle": "DA's error below JTSVM's, by less than its objective suggests (aut-avn)",
    "001-fig5-bottom": "Annealing beats a fixed temperature on aut-avn",
    "001-table4": "On PC-MAC, kernel DA and ∇TSVM have lower error than JTSVM",
    "001-table5": "A fixed temperature is mostly worse than annealing (PC-MAC)",
    "002-speed": "CCCP-TSVM is orders of magnitude faster than SVM-light and ∇TSVM",
    "002-scaling": "CCCP-TSVM's training time grows quadratically",
}
